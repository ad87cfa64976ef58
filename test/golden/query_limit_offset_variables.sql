SELECT
  (
    SELECT
      coalesce(
        json_agg(
          row_to_json("_0_e")
          ORDER BY
            "_root"."name" DESC NULLS LAST
        ),
        '[]'
      ) AS "json"
    FROM
      (
        SELECT
          "_root"."name"
        FROM
          "public"."author" AS "_root"
        ORDER BY
          "_root"."name" DESC NULLS LAST
        LIMIT
          $1::"int8"
        OFFSET
          $2::"int8"
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."name" AS "name"
      ) AS "_0_e"
  )::text AS "0";
-- $1 = {"kind":"variable","name":"limit","path":[],"pgType":{"type":"int8","typeSchema":"pg_catalog","array":false}}
-- $2 = {"kind":"variable","name":"offset","path":[],"pgType":{"type":"int8","typeSchema":"pg_catalog","array":false}}
