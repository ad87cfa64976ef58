SELECT
  (
    SELECT
      coalesce(json_agg(row_to_json("_0_e")), '[]') AS "json"
    FROM
      (
        SELECT
          "_root"."id"
        FROM
          "public"."article" AS "_root"
        WHERE
          (
            (
              ("_root"."title" = ANY ($1::"text" []))
              OR (NOT ("_root"."is_published" = $2::"bool"))
            )
            AND ("_root"."tags" IS NOT NULL)
          )
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."id" AS "id"
      ) AS "_0_e"
  )::text AS "0",
  (
    SELECT
      coalesce(json_agg(row_to_json("_1_e")), '[]') AS "json"
    FROM
      (
        SELECT
          "_root"."id"
        FROM
          "public"."article" AS "_root"
        WHERE
          (
            ("_root"."title" NOT LIKE $3::"text")
            AND (
              ("_root"."id" > $4::"int4")
              AND ("_root"."id" <= $5::"int4")
            )
          )
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."id" AS "id"
      ) AS "_1_e"
  )::text AS "1";
-- $1 = {"kind":"const","value":"{\"T1\",\"T2\"}"}
-- $2 = {"kind":"const","value":"true"}
-- $3 = {"kind":"const","value":"%x%"}
-- $4 = {"kind":"const","value":"1"}
-- $5 = {"kind":"const","value":"10"}
