SELECT
  (
    SELECT
      row_to_json("_0_e") AS "json"
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
      CROSS JOIN LATERAL (
        SELECT
          "_root"."id" AS "id",
          "_root"."name" AS "name"
      ) AS "_0_e"
  )::text AS "0";
-- $1 = {"kind":"const","value":"1"}
-- $2 = {"kind":"session","name":"x-engine-user-id"}
