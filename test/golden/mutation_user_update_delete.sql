-- statement 1
WITH
  "_0_upd_article" AS (
    UPDATE "public"."article" AS "_t"
    SET
      "title" = $1::text::"text"
    WHERE
      (
        ("_t"."id" = $2::"int4")
        AND ("_t"."author_id" = $3::"int4")
      )
    RETURNING
      "_t".*,
      CASE
        WHEN ("_t"."title" NOT ILIKE $4::"text") THEN true
        ELSE engine_catalog.check_violation ('update check constraint failed')
      END AS "__check"
  ),
  "_1_rows_article" AS (
    SELECT
      "id",
      "title",
      "author_id",
      "is_published",
      "tags"
    FROM
      "_0_upd_article"
  )
SELECT
  (json_build_object('affected_rows', "_c"."n"))::text
FROM
  (
    SELECT
      (set_config('engine.user', $5, true) IS NULL)::int + (
        SELECT
          count(*)
        FROM
          "_1_rows_article"
      ) AS "n"
  ) AS "_c";
-- $1 = {"kind":"variable","name":"t","path":[],"pgType":{"type":"text","typeSchema":"pg_catalog","array":false}}
-- $2 = {"kind":"const","value":"2"}
-- $3 = {"kind":"session","name":"x-engine-user-id"}
-- $4 = {"kind":"const","value":"%forbidden%"}
-- $5 = {"kind":"session_object"}

-- statement 2
WITH
  "_2_del_article" AS (
    DELETE FROM "public"."article" AS "_t"
    WHERE
      (
        ("_t"."id" = $1::"int4")
        AND (
          ("_t"."author_id" = $2::"int4")
          AND ("_t"."is_published" = $3::"bool")
        )
      )
    RETURNING
      "_t".*
  )
SELECT
  (json_build_object('affected_rows', "_c"."n"))::text
FROM
  (
    SELECT
      (set_config('engine.user', $4, true) IS NULL)::int + (
        SELECT
          count(*)
        FROM
          "_2_del_article"
      ) AS "n"
  ) AS "_c";
-- $1 = {"kind":"const","value":"2"}
-- $2 = {"kind":"session","name":"x-engine-user-id"}
-- $3 = {"kind":"const","value":"false"}
-- $4 = {"kind":"session_object"}
