SELECT
  (
    SELECT
      json_build_object(
        'edges',
        coalesce(
          json_agg(
            json_build_object('node', row_to_json("_1_e"))
            ORDER BY
              "_root"."__rn"
          ),
          '[]'
        ),
        'pageInfo',
        json_build_object('hasPreviousPage', coalesce(min("_root"."__rn") > 1, false))
      ) AS "json"
    FROM
      (
        SELECT
          *
        FROM
          (
            SELECT
              "_root".*,
              json_build_object('id', "_root"."id") AS "__cursor",
              "_root"."id" AS "__ob_0",
              row_number() OVER (
                ORDER BY
                  "_root"."id" ASC NULLS LAST
              ) AS "__rn",
              count(*) OVER () AS "__total"
            FROM
              (
                SELECT
                  "_root".*
                FROM
                  "public"."article" AS "_root"
                WHERE
                  (
                    ("_root"."is_published" = $1::"bool")
                    OR EXISTS (
                      SELECT
                        1
                      FROM
                        "public"."author" AS "_0_author"
                      WHERE
                        "_0_author"."id" = "_root"."author_id"
                        AND ("_0_author"."id" = $2::"int4")
                    )
                  )
              ) AS "_root"
          ) AS "_root"
        ORDER BY
          "_root"."__rn" DESC
        LIMIT
          2
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          "_root"."title" AS "title"
      ) AS "_1_e"
  )::text AS "0";
-- $1 = {"kind":"const","value":"true"}
-- $2 = {"kind":"session","name":"x-engine-user-id"}
