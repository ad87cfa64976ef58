SELECT
  (
    SELECT
      coalesce(json_agg(json_build_object('name', "_root"."name", 'fav', "_root"."fav")), '[]') AS "json"
    FROM
      (
        SELECT
          "_root"."name",
          "_root"."fav"
        FROM
          "public"."author" AS "_root"
        WHERE
          ("_root"."fav" = $1::"text")
      ) AS "_root"
  )::text AS "0",
  (
    SELECT
      coalesce(
        json_agg(
          json_build_object('id', "_root"."id", 'label', "_root"."label")
          ORDER BY
            "_root"."id" ASC NULLS LAST
        ),
        '[]'
      ) AS "json"
    FROM
      (
        SELECT
          "_root"."id",
          "_root"."label"
        FROM
          "other"."thing" AS "_root"
      ) AS "_root"
  )::text AS "1";
-- $1 = {"kind":"const","value":"red"}
