-- statement 1
WITH
  "_0_upd_article" AS (
    UPDATE "public"."article" AS "_t"
    SET
      "title" = $1::text::"text",
      "author_id" = "_t"."author_id" + $2::text::"int4"
    WHERE
      ("_t"."id" = $3::"int4")
    RETURNING
      "_t".*
  )
SELECT
  (
    json_build_object(
      'affected_rows',
      "_c"."n",
      'returning',
      (
        SELECT
          coalesce(json_agg(row_to_json("_3_e")), '[]') AS "json"
        FROM
          (
            SELECT
              "_root"."id",
              "_root"."title",
              "_root"."author_id"
            FROM
              "_0_upd_article" AS "_root"
          ) AS "_root"
          LEFT JOIN LATERAL (
            SELECT
              row_to_json("_2_e") AS "json"
            FROM
              (
                SELECT
                  "_1_author"."name"
                FROM
                  "public"."author" AS "_1_author"
                WHERE
                  "_1_author"."id" = "_root"."author_id"
                LIMIT
                  1
              ) AS "_1_author"
              CROSS JOIN LATERAL (
                SELECT
                  "_1_author"."name" AS "name"
              ) AS "_2_e"
          ) AS "_1_author.j" ON true
          CROSS JOIN LATERAL (
            SELECT
              "_root"."id" AS "id",
              "_root"."title" AS "title",
              "_1_author.j"."json" AS "author"
          ) AS "_3_e"
      )
    )
  )::text
FROM
  (
    SELECT
      (set_config('engine.user', $4, true) IS NULL)::int + (
        SELECT
          count(*)
        FROM
          "_0_upd_article"
      ) AS "n"
  ) AS "_c";
-- $1 = {"kind":"const","value":"x"}
-- $2 = {"kind":"const","value":"1"}
-- $3 = {"kind":"const","value":"1"}
-- $4 = {"kind":"session_object"}
