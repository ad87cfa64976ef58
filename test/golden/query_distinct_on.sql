SELECT
  (
    SELECT
      coalesce(
        json_agg(
          json_build_object('author_id', "_root"."author_id", 'title', "_root"."title")
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
  )::text AS "0";
