WITH
  "_0_upd_article" AS (
    UPDATE "public"."article" AS "_t"
    SET
      "title" = $1::text::"text",
      "author_id" = "_t"."author_id" + $2::text::"int4"
    WHERE
      ("_t"."author_id" = $3::"int4")
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
              "_root"."id"
            FROM
              "_0_upd_article" AS "_root"
          ) AS "_root"
          CROSS JOIN LATERAL (
            SELECT
              "_root"."id" AS "id"
          ) AS "_1_e"
      )
    )
  )::text
FROM
  (
    SELECT
      (set_config('engine.user', $4, true) IS NULL)::int + (
        SELECT
          count(*)
        FROM
          "_0_upd_article"
      ) AS "n"
  ) AS "_c";
-- $1 = "u"
-- $2 = "1"
-- $3 = "1"
-- $4 = "{\"x-engine-role\":\"admin\"}"
