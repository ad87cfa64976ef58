SELECT
  (
    SELECT
      coalesce(json_agg(json_build_object('shout', "public"."author_shout" ("_root"))), '[]') AS "json"
    FROM
      (
        SELECT
          *
        FROM
          "public"."author" AS "_root"
      ) AS "_root"
  )::text AS "0";
