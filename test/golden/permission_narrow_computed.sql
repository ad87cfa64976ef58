SELECT
  (
    SELECT
      coalesce(json_agg(row_to_json("_0_e")), '[]') AS "json"
    FROM
      (
        SELECT
          *
        FROM
          "public"."author" AS "_root"
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "public"."author_shout" ("_root") AS "shout"
      ) AS "_0_e"
  )::text AS "0";
