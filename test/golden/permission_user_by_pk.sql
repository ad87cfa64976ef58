SELECT
  (
    SELECT
      json_build_object('id', "_root"."id", 'name', "_root"."name") AS "json"
    FROM
      (
        SELECT
          "_root"."id",
          "_root"."name"
        FROM
          "public"."author" AS "_root"
        WHERE
          (
            ("_root"."id" = $1::"int4")
            AND ("_root"."id" = $2::"int4")
          )
      ) AS "_root"
  )::text AS "0";
-- $1 = {"kind":"const","value":"1"}
-- $2 = {"kind":"session","name":"x-engine-user-id"}
