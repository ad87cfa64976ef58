-- statement 1
WITH
  "_0_ins_article" AS (
    INSERT INTO
      "public"."article" AS "_t" ("title", "author_id", "is_published")
    VALUES
      ($1::text::"text", $2::text::"int4", $3::text::"bool")
    RETURNING
      "_t".*,
      CASE
        WHEN ("_t"."author_id" = $4::"int4") THEN true
        ELSE engine_catalog.check_violation ('insert check constraint failed')
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
      "_0_ins_article"
  )
SELECT
  (
    json_build_object(
      'affected_rows',
      "_c"."n",
      'returning',
      (
        SELECT
          coalesce(json_agg(row_to_json("_2_e")), '[]') AS "json"
        FROM
          (
            SELECT
              "_root"."id",
              "_root"."title"
            FROM
              "_1_rows_article" AS "_root"
          ) AS "_root"
          CROSS JOIN LATERAL (
            SELECT
              "_root"."id" AS "id",
              "_root"."title" AS "title"
          ) AS "_2_e"
      )
    )
  )::text
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
-- $1 = {"kind":"const","value":"mine"}
-- $2 = {"kind":"session","name":"x-engine-user-id"}
-- $3 = {"kind":"const","value":"false"}
-- $4 = {"kind":"session","name":"x-engine-user-id"}
-- $5 = {"kind":"session_object"}
