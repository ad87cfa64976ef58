SELECT
  (
    SELECT
      coalesce(json_agg(json_build_object('id', "_root"."id")), '[]') AS "json"
    FROM
      (
        SELECT
          "_root"."id"
        FROM
          "public"."search_articles" ($1::"text") AS "_root"
      ) AS "_root"
  )::text AS "0",
  (
    SELECT
      coalesce(
        json_agg(
          json_build_object(
            'shout',
            "public"."author_shout" ("_root"),
            'all_articles',
            "_0_all_articles.j"."json"
          )
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
          coalesce(json_agg(json_build_object('id', "_0_all_articles"."id")), '[]') AS "json"
        FROM
          (
            SELECT
              "_0_all_articles"."id"
            FROM
              "public"."author_articles" ("_root") AS "_0_all_articles"
          ) AS "_0_all_articles"
      ) AS "_0_all_articles.j" ON true
  )::text AS "1";
-- $1 = {"kind":"const","value":"T"}
