SELECT
  "_subs"."id",
  ("_fld"."root")::text AS "result"
FROM
  unnest($1::text[], $2::json[]) AS "_subs" ("id", "vars")
  LEFT JOIN LATERAL (
    SELECT
      json_build_object(
        'author_by_pk',
        (
          SELECT
            json_build_object('name', "_root"."name", 'articles', "_0_articles.j"."json") AS "json"
          FROM
            (
              SELECT
                "_root"."name",
                "_root"."id"
              FROM
                "public"."author" AS "_root"
              WHERE
                ("_root"."id" = ("_subs"."vars" ->> 0)::"int4")
            ) AS "_root"
            LEFT JOIN LATERAL (
              SELECT
                coalesce(
                  json_agg(
                    json_build_object('title', "_0_articles"."title")
                    ORDER BY
                      "_0_articles"."id" ASC NULLS LAST
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
                ) AS "_0_articles"
            ) AS "_0_articles.j" ON true
        )
      ) AS "root"
  ) AS "_fld" ON true;
-- $1 = {"kind":"variable","name":"id","path":[],"pgType":{"type":"int4","typeSchema":"pg_catalog","array":false}}
