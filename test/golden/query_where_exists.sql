SELECT
  (
    SELECT
      coalesce(json_agg(json_build_object('id', "_root"."id")), '[]') AS "json"
    FROM
      (
        SELECT
          "_root"."id"
        FROM
          "public"."author" AS "_root"
        WHERE
          EXISTS (
            SELECT
              1
            FROM
              "public"."article" AS "_0_articles"
            WHERE
              "_0_articles"."author_id" = "_root"."id"
              AND (
                ("_0_articles"."is_published" = $1::"bool")
                AND ("_0_articles"."title" ILIKE $2::"text")
              )
          )
      ) AS "_root"
  )::text AS "0",
  (
    SELECT
      coalesce(json_agg(json_build_object('id', "_root"."id")), '[]') AS "json"
    FROM
      (
        SELECT
          "_root"."id"
        FROM
          "public"."article" AS "_root"
        WHERE
          EXISTS (
            SELECT
              1
            FROM
              "public"."author" AS "_1_author"
            WHERE
              "_1_author"."id" = "_root"."author_id"
              AND ("_1_author"."name" = $3::"text")
          )
      ) AS "_root"
  )::text AS "1";
-- $1 = {"kind":"const","value":"true"}
-- $2 = {"kind":"const","value":"%t%"}
-- $3 = {"kind":"const","value":"A1"}
