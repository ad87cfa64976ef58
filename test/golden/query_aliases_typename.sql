SELECT
  (
    SELECT
      row_to_json("_0_e") AS "json"
    FROM
      (
        SELECT
          "_root"."name"
        FROM
          "public"."author" AS "_root"
        WHERE
          ("_root"."id" = $1::"int4")
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."name" AS "name",
          'author'::text AS "__typename"
      ) AS "_0_e"
  )::text AS "0",
  (
    SELECT
      row_to_json("_1_e") AS "json"
    FROM
      (
        SELECT
          "_root"."name"
        FROM
          "public"."author" AS "_root"
        WHERE
          ("_root"."id" = $2::"int4")
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."name" AS "name"
      ) AS "_1_e"
  )::text AS "1";
-- $1 = {"kind":"const","value":"1"}
-- $2 = {"kind":"const","value":"2"}
