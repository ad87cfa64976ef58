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
          coalesce(
            json_agg(json_build_object('id', "_root"."id", 'author', "_1_author.j"."json")),
            '[]'
          ) AS "json"
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
              json_build_object('name', "_1_author"."name") AS "json"
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
          ) AS "_1_author.j" ON true
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
