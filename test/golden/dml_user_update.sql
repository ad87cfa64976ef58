WITH
  "_0_upd_article" AS (
    UPDATE "public"."article" AS "_t"
    SET
      "title" = $1::text::"text"
    WHERE
      (
        ("_t"."id" = $2::"int4")
        AND ("_t"."author_id" = $3::"int4")
      )
    RETURNING
      "_t".*,
      CASE
        WHEN ("_t"."title" NOT ILIKE $4::"text") THEN true
        ELSE engine_catalog.check_violation ('update check constraint failed')
      END AS "__check"
  ),
  "_1_rows_article" AS (
    SELECT
      "id",
      "title",
      "author_id",
      "is_published",
      "tags"
    FROM
      "_0_upd_article"
  )
SELECT
  (json_build_object('affected_rows', "_c"."n"))::text
FROM
  (
    SELECT
      (set_config('engine.user', $5, true) IS NULL)::int + (
        SELECT
          count(*)
        FROM
          "_1_rows_article"
      ) AS "n"
  ) AS "_c";
-- $1 = "z"
-- $2 = "1"
-- $3 = "1"
-- $4 = "%forbidden%"
-- $5 = "{\"x-engine-role\":\"user\",\"x-engine-user-id\":\"1\"}"
