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
          *
        FROM
          "public"."author" AS "_root"
      ) AS "_root"
      LEFT JOIN LATERAL (
        SELECT
          coalesce(
            json_agg(
              row_to_json("_1_e")
              ORDER BY
                "_0_all_articles"."id" ASC NULLS LAST
            ),
            '[]'
          ) AS "json"
        FROM
          (
            SELECT
              "_0_all_articles"."title",
              "_0_all_articles"."id"
            FROM
              "public"."author_articles" ("_root") AS "_0_all_articles"
            WHERE
              ("_0_all_articles"."is_published" = $1::"bool")
          ) AS "_0_all_articles"
          CROSS JOIN LATERAL (
            SELECT
              "_0_all_articles"."title" AS "title"
          ) AS "_1_e"
      ) AS "_0_all_articles.j" ON true
      CROSS JOIN LATERAL (
        SELECT
          "public"."author_shout" ("_root", $2::"text") AS "shout",
          "_0_all_articles.j"."json" AS "all_articles"
      ) AS "_2_e"
  )::text AS "0";
-- $1 = {"kind":"const","value":"true"}
-- $2 = {"kind":"const","value":"?"}
