SELECT
  (
    SELECT
      coalesce(
        json_agg(
          json_build_object('title', "_root"."title", 'author', "_1_author.j"."json")
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
        WHERE
          (
            ("_root"."is_published" = $1::"bool")
            OR EXISTS (
              SELECT
                1
              FROM
                "public"."author" AS "_0_author"
              WHERE
                "_0_author"."id" = "_root"."author_id"
                AND ("_0_author"."id" = $2::"int4")
            )
          )
      ) AS "_root"
      LEFT JOIN LATERAL (
        SELECT
          json_build_object('name', "_1_author"."name", 'articles', "_2_articles.j"."json") AS "json"
        FROM
          (
            SELECT
              "_1_author"."name",
              "_1_author"."id"
            FROM
              "public"."author" AS "_1_author"
            WHERE
              "_1_author"."id" = "_root"."author_id"
              AND ("_1_author"."id" = $2::"int4")
            LIMIT
              1
          ) AS "_1_author"
          LEFT JOIN LATERAL (
            SELECT
              coalesce(json_agg(json_build_object('title', "_2_articles"."title")), '[]') AS "json"
            FROM
              (
                SELECT
                  "_2_articles"."title"
                FROM
                  "public"."article" AS "_2_articles"
                WHERE
                  "_2_articles"."author_id" = "_1_author"."id"
                  AND (
                    ("_2_articles"."is_published" = $1::"bool")
                    OR EXISTS (
                      SELECT
                        1
                      FROM
                        "public"."author" AS "_3_author"
                      WHERE
                        "_3_author"."id" = "_2_articles"."author_id"
                        AND ("_3_author"."id" = $2::"int4")
                    )
                  )
              ) AS "_2_articles"
          ) AS "_2_articles.j" ON true
      ) AS "_1_author.j" ON true
  )::text AS "0";
-- $1 = {"kind":"const","value":"true"}
-- $2 = {"kind":"session","name":"x-engine-user-id"}
