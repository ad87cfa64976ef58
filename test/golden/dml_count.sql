SELECT
  (
    SELECT
      json_build_object('aggregate', json_build_object('count', count(*))) AS "json"
    FROM
      (
        SELECT
          *
        FROM
          "public"."author" AS "_root"
        WHERE
          ("_root"."name" LIKE $1::"text")
      ) AS "_root"
  )::text;
-- $1 = "A%"
