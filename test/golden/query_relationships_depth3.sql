SELECT
  (
    SELECT
      coalesce(
        json_agg(
          row_to_json("_6_e")
          ORDER BY
            "_root"."id" ASC NULLS LAST
        ),
        '[]'
      ) AS "json"
    FROM
      (
        SELECT
          "_root"."title",
          "_root"."author_id",
          "_root"."id"
        FROM
          "public"."article" AS "_root"
      ) AS "_root"
      LEFT JOIN LATERAL (
        SELECT
          row_to_json("_5_e") AS "json"
        FROM
          (
            SELECT
              "_0_author"."name",
              "_0_author"."id"
            FROM
              "public"."author" AS "_0_author"
            WHERE
              "_0_author"."id" = "_root"."author_id"
            LIMIT
              1
          ) AS "_0_author"
          LEFT JOIN LATERAL (
            SELECT
              coalesce(
                json_agg(
                  row_to_json("_4_e")
                  ORDER BY
                    "_1_articles"."id" ASC NULLS LAST
                ),
                '[]'
              ) AS "json"
            FROM
              (
                SELECT
                  "_1_articles"."title",
                  "_1_articles"."author_id",
                  "_1_articles"."id"
                FROM
                  "public"."article" AS "_1_articles"
                WHERE
                  "_1_articles"."author_id" = "_0_author"."id"
              ) AS "_1_articles"
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
                      "_2_author"."id" = "_1_articles"."author_id"
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
                  "_1_articles"."title" AS "title",
                  "_2_author.j"."json" AS "author"
              ) AS "_4_e"
          ) AS "_1_articles.j" ON true
          CROSS JOIN LATERAL (
            SELECT
              "_0_author"."name" AS "name",
              "_1_articles.j"."json" AS "articles"
          ) AS "_5_e"
      ) AS "_0_author.j" ON true
      CROSS JOIN LATERAL (
        SELECT
          "_root"."title" AS "title",
          "_0_author.j"."json" AS "author"
      ) AS "_6_e"
  )::text AS "0";
