SELECT
  (
    SELECT
      json_build_object(
        'aggregate',
        json_build_object('count', count(*)),
        'nodes',
        coalesce(json_agg(row_to_json("_0_e")), '[]')
      ) AS "json"
    FROM
      (
        SELECT
          "_root"."title"
        FROM
          "public"."search_articles" ($1::"text") AS "_root"
        WHERE
          ("_root"."is_published" = $2::"bool")
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."title" AS "title"
      ) AS "_0_e"
  )::text AS "0";
-- $1 = {"kind":"const","value":"T"}
-- $2 = {"kind":"const","value":"true"}
