SELECT
  (
    SELECT
      coalesce(json_agg(row_to_json("_3_e")), '[]') AS "json"
    FROM
      (
        SELECT
          *
        FROM
          "public"."author" AS "_root"
        WHERE
          ("_root"."id" = $1::"int4")
        LIMIT
          5
      ) AS "_root"
      LEFT JOIN LATERAL (
        SELECT
          coalesce(json_agg(row_to_json("_2_e")), '[]') AS "json"
        FROM
          (
            SELECT
              "_0_articles"."title"
            FROM
              "public"."article" AS "_0_articles"
            WHERE
              "_0_articles"."author_id" = "_root"."id"
              AND (
                ("_0_articles"."is_published" = $2::"bool")
                OR EXISTS (
                  SELECT
                    1
                  FROM
                    "public"."author" AS "_1_author"
                  WHERE
                    "_1_author"."id" = "_0_articles"."author_id"
                    AND ("_1_author"."id" = $1::"int4")
                )
              )
          ) AS "_0_articles"
          CROSS JOIN LATERAL (
            SELECT
              "_0_articles"."title" AS "title"
          ) AS "_2_e"
      ) AS "_0_articles.j" ON true
      CROSS JOIN LATERAL (
        SELECT
          "_root"."id" AS "id",
          "_root"."name" AS "name",
          "public"."author_shout" ("_root") AS "shout",
          "_0_articles.j"."json" AS "articles"
      ) AS "_3_e"
  )::text AS "0";
-- $1 = {"kind":"session","name":"x-engine-user-id"}
-- $2 = {"kind":"const","value":"true"}
