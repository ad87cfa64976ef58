SELECT
  (
    SELECT
      coalesce(json_agg(row_to_json("_0_e")), '[]') AS "json"
    FROM
      (
        SELECT
          "_root"."id"
        FROM
          "public"."search_articles" ($1::"text") AS "_root"
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."id" AS "id"
      ) AS "_0_e"
  )::text AS "0",
  (
    SELECT
      coalesce(json_agg(row_to_json("_3_e")), '[]') AS "json"
    FROM
      (
        SELECT
          *
        FROM
          "public"."author" AS "_root"
      ) AS "_root"
      LEFT JOIN LATERAL (
        SELECT
          coalesce(json_agg(row_to_json("_2_e")), '[]') AS "json"
        FROM
          (
            SELECT
              "_1_all_articles"."id"
            FROM
              "public"."author_articles" ("_root") AS "_1_all_articles"
          ) AS "_1_all_articles"
          CROSS JOIN LATERAL (
            SELECT
              "_1_all_articles"."id" AS "id"
          ) AS "_2_e"
      ) AS "_1_all_articles.j" ON true
      CROSS JOIN LATERAL (
        SELECT
          "public"."author_shout" ("_root") AS "shout",
          "_1_all_articles.j"."json" AS "all_articles"
      ) AS "_3_e"
  )::text AS "1";
-- $1 = {"kind":"const","value":"T"}
