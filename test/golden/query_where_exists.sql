SELECT
  (
    SELECT
      coalesce(json_agg(row_to_json("_1_e")), '[]') AS "json"
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
      CROSS JOIN LATERAL (
        SELECT
          "_root"."id" AS "id"
      ) AS "_1_e"
  )::text AS "0",
  (
    SELECT
      coalesce(json_agg(row_to_json("_3_e")), '[]') AS "json"
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
              "public"."author" AS "_2_author"
            WHERE
              "_2_author"."id" = "_root"."author_id"
              AND ("_2_author"."name" = $3::"text")
          )
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."id" AS "id"
      ) AS "_3_e"
  )::text AS "1";
-- $1 = {"kind":"const","value":"true"}
-- $2 = {"kind":"const","value":"%t%"}
-- $3 = {"kind":"const","value":"A1"}
