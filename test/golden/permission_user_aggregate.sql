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
  )::text AS "0";
-- $1 = {"kind":"const","value":"true"}
-- $2 = {"kind":"session","name":"x-engine-user-id"}
