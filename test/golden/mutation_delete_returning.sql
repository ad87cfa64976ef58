-- statement 1
WITH
  "_1_del_article" AS (
    DELETE FROM "public"."article" AS "_t"
    WHERE
      EXISTS (
        SELECT
          1
        FROM
          "public"."author" AS "_0_author"
        WHERE
          "_0_author"."id" = "_t"."author_id"
          AND ("_0_author"."name" = $1::"text")
      )
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
          coalesce(json_agg(row_to_json("_4_e")), '[]') AS "json"
        FROM
          (
            SELECT
              "_root"."id",
              "_root"."author_id"
            FROM
              "_1_del_article" AS "_root"
          ) AS "_root"
          LEFT JOIN LATERAL (
            SELECT
              row_to_json("_3_e") AS "json"
            FROM
              (
                SELECT
                  "_2_author"."name"
                FROM
                  "public"."author" AS "_2_author"
                WHERE
                  "_2_author"."id" = "_root"."author_id"
                LIMIT
                  1
              ) AS "_2_author"
              CROSS JOIN LATERAL (
                SELECT
                  "_2_author"."name" AS "name"
              ) AS "_3_e"
          ) AS "_2_author.j" ON true
          CROSS JOIN LATERAL (
            SELECT
              "_root"."id" AS "id",
              "_2_author.j"."json" AS "author"
          ) AS "_4_e"
      )
    )
  )::text
FROM
  (
    SELECT
      (set_config('engine.user', $2, true) IS NULL)::int + (
        SELECT
          count(*)
        FROM
          "_1_del_article"
      ) AS "n"
  ) AS "_c";
-- $1 = {"kind":"const","value":"A2"}
-- $2 = {"kind":"session_object"}
