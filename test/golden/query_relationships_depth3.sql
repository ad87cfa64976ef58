SELECT
  (
    SELECT
      coalesce(
        json_agg(
          json_build_object('title', "_root"."title", 'author', "_0_author.j"."json")
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
          json_build_object('name', "_0_author"."name", 'articles', "_1_articles.j"."json") AS "json"
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
                  json_build_object('title', "_1_articles"."title", 'author', "_2_author.j"."json")
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
                  json_build_object('name', "_2_author"."name") AS "json"
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
              ) AS "_2_author.j" ON true
          ) AS "_1_articles.j" ON true
      ) AS "_0_author.j" ON true
  )::text AS "0";
