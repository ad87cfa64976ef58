SELECT
  (
    SELECT
      json_build_object('id', "_root"."id", 'name', "_root"."name", 'fav', "_root"."fav") AS "json"
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
  )::text AS "0";
-- $1 = {"kind":"variable","name":"id","path":[],"pgType":{"type":"int4","typeSchema":"pg_catalog","array":false}}
