SELECT
  "_subs"."id",
  ("_fld"."root")::text AS "result"
FROM
  unnest($1::text[], $2::json[]) AS "_subs" ("id", "vars")
  LEFT JOIN LATERAL (
    SELECT
      json_build_object(
        'article',
        (
          SELECT
            coalesce(
              json_agg(
                row_to_json("_3_e")
                ORDER BY
                  "_root"."id" ASC NULLS LAST
              ),
              '[]'
            ) AS "json"
          FROM
            (
              SELECT
                "_root"."id",
                "_root"."title",
                "_root"."author_id"
              FROM
                "public"."article" AS "_root"
              WHERE
                (
                  ("_root"."is_published" = ("_subs"."vars" ->> 0)::"bool")
                  OR EXISTS (
                    SELECT
                      1
                    FROM
                      "public"."author" AS "_0_author"
                    WHERE
                      "_0_author"."id" = "_root"."author_id"
                      AND ("_0_author"."id" = ("_subs"."vars" ->> 1)::"int4")
                  )
                )
            ) AS "_root"
            LEFT JOIN LATERAL (
              SELECT
                row_to_json("_2_e") AS "json"
              FROM
                (
                  SELECT
                    "_1_author"."name"
                  FROM
                    "public"."author" AS "_1_author"
                  WHERE
                    "_1_author"."id" = "_root"."author_id"
                    AND ("_1_author"."id" = ("_subs"."vars" ->> 1)::"int4")
                  LIMIT
                    1
                ) AS "_1_author"
                CROSS JOIN LATERAL (
                  SELECT
                    "_1_author"."name" AS "name"
                ) AS "_2_e"
            ) AS "_1_author.j" ON true
            CROSS JOIN LATERAL (
              SELECT
                "_root"."id" AS "id",
                "_root"."title" AS "title",
                "_1_author.j"."json" AS "author"
            ) AS "_3_e"
        )
      ) AS "root"
  ) AS "_fld" ON true;
-- $1 = {"kind":"const","value":"true"}
-- $2 = {"kind":"session","name":"x-engine-user-id"}
