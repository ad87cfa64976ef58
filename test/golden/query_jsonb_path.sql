SELECT
  (
    SELECT
      coalesce(json_agg(row_to_json("_0_e")), '[]') AS "json"
    FROM
      (
        SELECT
          "_root"."id",
          "_root"."info"
        FROM
          "public"."author" AS "_root"
        WHERE
          (
            ("_root"."info" @> $1::"jsonb")
            AND ("_root"."info" ? $2::"text")
          )
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."id" AS "id",
          ("_root"."info" #> $3::text[]) AS "info"
      ) AS "_0_e"
  )::text AS "0";
-- $1 = {"kind":"const","value":"{\"a\":1}"}
-- $2 = {"kind":"const","value":"b"}
-- $3 = {"kind":"const","value":"{\"a\"}"}
