-- statement 1
WITH
  "_0_upd_article" AS (
    UPDATE "public"."article" AS "_t"
    SET
      "title" = $1::text::"text"
    WHERE
      ("_t"."id" = $2::"int4")
    RETURNING
      "_t".*
  )
SELECT
  (
    (
      SELECT
        row_to_json("_1_e") AS "json"
      FROM
        (
          SELECT
            "_root"."id",
            "_root"."title"
          FROM
            "_0_upd_article" AS "_root"
        ) AS "_root"
        CROSS JOIN LATERAL (
          SELECT
            "_root"."id" AS "id",
            "_root"."title" AS "title"
        ) AS "_1_e"
    )
  )::text
FROM
  (
    SELECT
      (set_config('engine.user', $3, true) IS NULL)::int + (
        SELECT
          count(*)
        FROM
          "_0_upd_article"
      ) AS "n"
  ) AS "_c";
-- $1 = {"kind":"const","value":"y"}
-- $2 = {"kind":"const","value":"1"}
-- $3 = {"kind":"session_object"}

-- statement 2
WITH
  "_2_del_article" AS (
    DELETE FROM "public"."article" AS "_t"
    WHERE
      ("_t"."id" = $1::"int4")
    RETURNING
      "_t".*
  )
SELECT
  (
    (
      SELECT
        row_to_json("_3_e") AS "json"
      FROM
        (
          SELECT
            "_root"."id",
            "_root"."title"
          FROM
            "_2_del_article" AS "_root"
        ) AS "_root"
        CROSS JOIN LATERAL (
          SELECT
            "_root"."id" AS "id",
            "_root"."title" AS "title"
        ) AS "_3_e"
    )
  )::text
FROM
  (
    SELECT
      (set_config('engine.user', $2, true) IS NULL)::int + (
        SELECT
          count(*)
        FROM
          "_2_del_article"
      ) AS "n"
  ) AS "_c";
-- $1 = {"kind":"const","value":"3"}
-- $2 = {"kind":"session_object"}
