SELECT
  (
    SELECT
      coalesce(
        json_agg(
          row_to_json("_0_e")
          ORDER BY
            "_root"."id" ASC NULLS LAST
        ),
        '[]'
      ) AS "json"
    FROM
      (
        SELECT
          "_root"."id"
        FROM
          "public"."author" AS "_root"
        WHERE
          ("_root"."id" = $1::"int4")
        ORDER BY
          "_root"."id" ASC NULLS LAST
        LIMIT
          least(10, 5)
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."id" AS "id"
      ) AS "_0_e"
  )::text AS "0";
-- $1 = {"kind":"session","name":"x-engine-user-id"}
