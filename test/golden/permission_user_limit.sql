SELECT
  (
    SELECT
      coalesce(
        json_agg(
          json_build_object('id', "_root"."id")
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
  )::text AS "0";
-- $1 = {"kind":"session","name":"x-engine-user-id"}
