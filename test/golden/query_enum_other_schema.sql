SELECT
  (
    SELECT
      coalesce(json_agg(row_to_json("_0_e")), '[]') AS "json"
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
      CROSS JOIN LATERAL (
        SELECT
          "_root"."name" AS "name",
          "_root"."fav" AS "fav"
      ) AS "_0_e"
  )::text AS "0",
  (
    SELECT
      coalesce(
        json_agg(
          row_to_json("_1_e")
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
      CROSS JOIN LATERAL (
        SELECT
          "_root"."id" AS "id",
          "_root"."label" AS "label"
      ) AS "_1_e"
  )::text AS "1";
-- $1 = {"kind":"const","value":"red"}
