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
            row_to_json("_2_e") AS "json"
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
                    row_to_json("_1_e")
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
        )
      ) AS "root"
  ) AS "_fld" ON true;
-- $1 = {"kind":"variable","name":"id","path":[],"pgType":{"type":"int4","typeSchema":"pg_catalog","array":false}}
