SELECT
  (
    SELECT
      coalesce(json_agg(row_to_json("_0_e")), '[]') AS "json"
    FROM
      (
        SELECT
          "_root"."id",
          "_root"."name"
        FROM
          "public"."author" AS "_root"
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."id" AS "id",
          "_root"."name" AS "name"
      ) AS "_0_e"
  )::text AS "0";
