WITH
  "_0_del_article" AS (
    DELETE FROM "public"."article" AS "_t"
    WHERE
      (
        ("_t"."id" > $1::"int4")
        AND (
          ("_t"."author_id" = $2::"int4")
          AND ("_t"."is_published" = $3::"bool")
        )
      )
    RETURNING
      "_t".*
  )
SELECT
  (json_build_object('affected_rows', "_c"."n"))::text
FROM
  (
    SELECT
      (set_config('engine.user', $4, true) IS NULL)::int + (
        SELECT
          count(*)
        FROM
          "_0_del_article"
      ) AS "n"
  ) AS "_c";
-- $1 = "0"
-- $2 = "1"
-- $3 = "false"
-- $4 = "{\"x-engine-role\":\"user\",\"x-engine-user-id\":\"1\"}"
