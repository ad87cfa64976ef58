WITH
  "_0_ins_article" AS (
    INSERT INTO
      "public"."article" AS "_t" ("id", "title", "author_id")
    VALUES
      ($1::text::"int4", $2::text::"text", $1::text::"int4")
    ON CONFLICT ON CONSTRAINT "article_pkey" DO UPDATE
    SET
      "id" = EXCLUDED."id",
      "title" = EXCLUDED."title",
      "author_id" = EXCLUDED."author_id"
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
              "_0_ins_article" AS "_root"
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
      (set_config('engine.user', $3, true) IS NULL)::int + (
        SELECT
          count(*)
        FROM
          "_0_ins_article"
      ) AS "n"
  ) AS "_c";
-- $1 = "1"
-- $2 = "again"
-- $3 = "{\"x-engine-role\":\"admin\"}"
