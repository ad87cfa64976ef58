SELECT
  (
    SELECT
      coalesce(
        json_agg(
          row_to_json("_0_e")
          ORDER BY
            "_root"."author_id" ASC NULLS LAST,
            "_root"."id" DESC NULLS FIRST
        ),
        '[]'
      ) AS "json"
    FROM
      (
        SELECT DISTINCT
          ON ("_root"."author_id") "_root"."author_id",
          "_root"."title",
          "_root"."id"
        FROM
          "public"."article" AS "_root"
        ORDER BY
          "_root"."author_id" ASC NULLS LAST,
          "_root"."id" DESC NULLS FIRST
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."author_id" AS "author_id",
          "_root"."title" AS "title"
      ) AS "_0_e"
  )::text AS "0";
