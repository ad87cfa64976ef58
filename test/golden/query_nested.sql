SELECT
  (
    SELECT
      coalesce(
        json_agg(
          row_to_json("_2_e")
          ORDER BY
            "_root"."id" ASC NULLS LAST
        ),
        '[]'
      ) AS "json"
    FROM
      (
        SELECT
          "_root"."name",
          "_root"."id"
        FROM
          "public"."author" AS "_root"
      ) AS "_root"
      LEFT JOIN LATERAL (
        SELECT
          coalesce(
            json_agg(
              row_to_json("_1_e")
              ORDER BY
                "_0_articles"."id" DESC NULLS FIRST
            ),
            '[]'
          ) AS "json"
        FROM
          (
            SELECT
              "_0_articles"."title",
              "_0_articles"."id"
            FROM
              "public"."article" AS "_0_articles"
            WHERE
              "_0_articles"."author_id" = "_root"."id"
              AND ("_0_articles"."is_published" = $1::"bool")
            ORDER BY
              "_0_articles"."id" DESC NULLS FIRST
            LIMIT
              2
          ) AS "_0_articles"
          CROSS JOIN LATERAL (
            SELECT
              "_0_articles"."title" AS "title"
          ) AS "_1_e"
      ) AS "_0_articles.j" ON true
      CROSS JOIN LATERAL (
        SELECT
          "_root"."name" AS "name",
          "_0_articles.j"."json" AS "articles"
      ) AS "_2_e"
  )::text AS "0";
-- $1 = {"kind":"const","value":"true"}
