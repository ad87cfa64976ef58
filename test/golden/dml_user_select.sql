SELECT
  (
    SELECT
      coalesce(
        json_agg(
          row_to_json("_3_e")
          ORDER BY
            "_root"."id" DESC NULLS FIRST
        ),
        '[]'
      ) AS "json"
    FROM
      (
        SELECT
          "_root"."id",
          "_root"."title",
          "_root"."author_id"
        FROM
          "public"."article" AS "_root"
        WHERE
          (
            ("_root"."title" LIKE $1::"text")
            AND (
              ("_root"."is_published" = $2::"bool")
              OR EXISTS (
                SELECT
                  1
                FROM
                  "public"."author" AS "_0_author"
                WHERE
                  "_0_author"."id" = "_root"."author_id"
                  AND ("_0_author"."id" = $3::"int4")
              )
            )
          )
        ORDER BY
          "_root"."id" DESC NULLS FIRST
        LIMIT
          2
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
              AND ("_1_author"."id" = $3::"int4")
            LIMIT
              5
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
  )::text;
-- $1 = "T%"
-- $2 = "true"
-- $3 = "1"
