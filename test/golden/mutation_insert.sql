-- statement 1
WITH
  "_0_ins_article" AS (
    INSERT INTO
      "public"."article" AS "_t" ("title", "author_id")
    VALUES
      ($1::text::"text", $2::text::"int4")
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
              "_root"."author_id"
            FROM
              "_0_ins_article" AS "_root"
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
              "_1_author.j"."json" AS "author"
          ) AS "_3_e"
      )
    )
  )::text
FROM
  (
    SELECT
      (set_config('engine.user', $3, true) IS NULL)::int + (
        SELECT
          count(*)
        FROM
          "_0_ins_article"
      ) AS "n"
  ) AS "_c";
-- $1 = {"kind":"const","value":"x"}
-- $2 = {"kind":"const","value":"1"}
-- $3 = {"kind":"session_object"}
