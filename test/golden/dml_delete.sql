WITH
  "_0_del_article" AS (
    DELETE FROM "public"."article" AS "_t"
    WHERE
      ("_t"."id" = $1::"int4")
    RETURNING
      "_t".*
  )
SELECT
  (
    json_build_object(
      'affected_rows',
      "_c"."n",
      'returning',
      (
        SELECT
          coalesce(json_agg(row_to_json("_1_e")), '[]') AS "json"
        FROM
          (
            SELECT
              "_root"."id",
              "_root"."title"
            FROM
              "_0_del_article" AS "_root"
          ) AS "_root"
          CROSS JOIN LATERAL (
            SELECT
              "_root"."id" AS "id",
              "_root"."title" AS "title"
          ) AS "_1_e"
      )
    )
  )::text
FROM
  (
    SELECT
      (set_config('engine.user', $2, true) IS NULL)::int + (
        SELECT
          count(*)
        FROM
          "_0_del_article"
      ) AS "n"
  ) AS "_c";
-- $1 = "3"
-- $2 = "{\"x-engine-role\":\"admin\"}"
