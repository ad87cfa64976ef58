SELECT
  "_subs"."id",
  ("_fld"."root")::text AS "result"
FROM
  unnest($1::text[], $2::json[]) AS "_subs" ("id", "vars")
  LEFT JOIN LATERAL (
    SELECT
      json_build_object(
        'article_aggregate',
        (
          SELECT
            json_build_object('aggregate', json_build_object('count', count(*))) AS "json"
          FROM
            (
              SELECT
                *
              FROM
                "public"."article" AS "_root"
              WHERE
                ("_root"."is_published" = ("_subs"."vars" ->> 0)::"bool")
            ) AS "_root"
        )
      ) AS "root"
  ) AS "_fld" ON true;
-- $1 = {"kind":"const","value":"true"}
