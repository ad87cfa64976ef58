SELECT
  (
    SELECT
      coalesce(
        json_agg(json_build_object('id', "_root"."id", 'info', ("_root"."info" #> $1::text[]))),
        '[]'
      ) AS "json"
    FROM
      (
        SELECT
          "_root"."id",
          "_root"."info"
        FROM
          "public"."author" AS "_root"
        WHERE
          (
            ("_root"."info" @> $2::"jsonb")
            AND ("_root"."info" ? $3::"text")
          )
      ) AS "_root"
  )::text AS "0";
-- $1 = {"kind":"const","value":"{\"a\"}"}
-- $2 = {"kind":"const","value":"{\"a\":1}"}
-- $3 = {"kind":"const","value":"b"}
