SELECT
  (
    SELECT
      coalesce(json_agg(json_build_object('id', "_root"."id", 'name', "_root"."name")), '[]') AS "json"
    FROM
      (
        SELECT
          "_root"."id",
          "_root"."name"
        FROM
          "public"."author" AS "_root"
      ) AS "_root"
  )::text AS "0";
