SELECT
  (
    SELECT
      json_build_object(
        'aggregate',
        json_build_object('count', count(*), 'max', json_build_object('id', max("_root"."id"))),
        'nodes',
        coalesce(json_agg(row_to_json("_0_e")), '[]')
      ) AS "json"
    FROM
      (
        SELECT
          "_root"."id",
          "_root"."title"
        FROM
          "public"."article" AS "_root"
        WHERE
          ("_root"."author_id" = $1::"int4")
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."title" AS "title"
      ) AS "_0_e"
  )::text AS "0";
-- $1 = {"kind":"const","value":"1"}
