SELECT
  (
    SELECT
      row_to_json("_0_e") AS "json"
    FROM
      (
        SELECT
          "_root"."id",
          "_root"."name",
          "_root"."fav"
        FROM
          "public"."author" AS "_root"
        WHERE
          ("_root"."id" = $1::"int4")
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."id" AS "id",
          "_root"."name" AS "name",
          "_root"."fav" AS "fav"
      ) AS "_0_e"
  )::text AS "0";
-- $1 = {"kind":"variable","name":"id","path":[],"pgType":{"type":"int4","typeSchema":"pg_catalog","array":false}}
