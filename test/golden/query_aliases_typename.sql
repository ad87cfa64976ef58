SELECT
  (
    SELECT
      json_build_object('name', "_root"."name", '__typename', 'author'::text) AS "json"
    FROM
      (
        SELECT
          "_root"."name"
        FROM
          "public"."author" AS "_root"
        WHERE
          ("_root"."id" = $1::"int4")
      ) AS "_root"
  )::text AS "0",
  (
    SELECT
      json_build_object('name', "_root"."name") AS "json"
    FROM
      (
        SELECT
          "_root"."name"
        FROM
          "public"."author" AS "_root"
        WHERE
          ("_root"."id" = $2::"int4")
      ) AS "_root"
  )::text AS "1";
-- $1 = {"kind":"const","value":"1"}
-- $2 = {"kind":"const","value":"2"}
