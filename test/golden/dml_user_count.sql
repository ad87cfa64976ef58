SELECT
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
          (
            ("_root"."title" ILIKE $1::"text")
            AND (
              ("_root"."is_published" = $2::"bool")
              OR EXISTS (
                SELECT
                  1
                FROM
                  "public"."author" AS "_0_author"
                WHERE
                  "_0_author"."id" = "_root"."author_id"
                  AND ("_0_author"."id" = $3::"int4")
              )
            )
          )
      ) AS "_root"
  )::text;
-- $1 = "t%"
-- $2 = "true"
-- $3 = "1"
