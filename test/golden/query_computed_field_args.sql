SELECT
  (
    SELECT
      coalesce(
        json_agg(
          json_build_object(
            'shout',
            "public"."author_shout" ("_root", $1::"text"),
            'all_articles',
            "_0_all_articles.j"."json"
          )
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
              json_build_object('title', "_0_all_articles"."title")
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
              ("_0_all_articles"."is_published" = $2::"bool")
          ) AS "_0_all_articles"
      ) AS "_0_all_articles.j" ON true
  )::text AS "0";
-- $1 = {"kind":"const","value":"?"}
-- $2 = {"kind":"const","value":"true"}
