SELECT
  (
    SELECT
      json_build_object(
        'aggregate',
        json_build_object('count', count(*), 'max', json_build_object('id', max("_root"."id"))),
        'nodes',
        coalesce(json_agg(json_build_object('title', "_root"."title")), '[]')
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
  )::text AS "0";
-- $1 = {"kind":"const","value":"1"}
