SELECT
  (
    SELECT
      coalesce(
        json_agg(
          row_to_json("_3_e")
          ORDER BY
            "_root"."name" DESC NULLS LAST
        ),
        '[]'
      ) AS "json"
    FROM
      (
        SELECT
          "_root"."id",
          "_root"."name"
        FROM
          "public"."author" AS "_root"
        WHERE
          EXISTS (
            SELECT
              1
            FROM
              "public"."article" AS "_0_articles"
            WHERE
              "_0_articles"."author_id" = "_root"."id"
              AND ("_0_articles"."title" LIKE $1::"text")
          )
        ORDER BY
          "_root"."name" DESC NULLS LAST
        LIMIT
          10
        OFFSET
          1
      ) AS "_root"
      LEFT JOIN LATERAL (
        SELECT
          coalesce(
            json_agg(
              row_to_json("_2_e")
              ORDER BY
                "_1_articles"."id" ASC NULLS LAST
            ),
            '[]'
          ) AS "json"
        FROM
          (
            SELECT
              "_1_articles"."id",
              "_1_articles"."title"
            FROM
              "public"."article" AS "_1_articles"
            WHERE
              "_1_articles"."author_id" = "_root"."id"
              AND ("_1_articles"."is_published" = $2::"bool")
            ORDER BY
              "_1_articles"."id" ASC NULLS LAST
            LIMIT
              2
          ) AS "_1_articles"
          CROSS JOIN LATERAL (
            SELECT
              "_1_articles"."id" AS "id",
              "_1_articles"."title" AS "title"
          ) AS "_2_e"
      ) AS "_1_articles.j" ON true
      CROSS JOIN LATERAL (
        SELECT
          "_root"."id" AS "id",
          "_root"."name" AS "name",
          "_1_articles.j"."json" AS "articles"
      ) AS "_3_e"
  )::text;
-- $1 = "T%"
-- $2 = "true"
