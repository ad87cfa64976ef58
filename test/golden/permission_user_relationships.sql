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
          row_to_json("_5_e") AS "json"
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
              coalesce(json_agg(row_to_json("_4_e")), '[]') AS "json"
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
              CROSS JOIN LATERAL (
                SELECT
                  "_2_articles"."title" AS "title"
              ) AS "_4_e"
          ) AS "_2_articles.j" ON true
          CROSS JOIN LATERAL (
            SELECT
              "_1_author"."name" AS "name",
              "_2_articles.j"."json" AS "articles"
          ) AS "_5_e"
      ) AS "_1_author.j" ON true
      CROSS JOIN LATERAL (
        SELECT
          "_root"."title" AS "title",
          "_1_author.j"."json" AS "author"
      ) AS "_6_e"
  )::text AS "0";
-- $1 = {"kind":"const","value":"true"}
-- $2 = {"kind":"session","name":"x-engine-user-id"}
