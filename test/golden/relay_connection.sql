SELECT
  (
    SELECT
      json_build_object(
        'edges',
        coalesce(
          json_agg(
            json_build_object(
              'cursor',
              translate(encode(convert_to(("_root"."__cursor")::text, 'UTF8'), 'base64'), chr(10), ''),
              'node',
              row_to_json("_0_e")
            )
            ORDER BY
              "_root"."__rn"
          ),
          '[]'
        ),
        'pageInfo',
        json_build_object(
          'hasNextPage',
          coalesce(max("_root"."__rn") < max("_root"."__total"), false),
          'endCursor',
          translate(
            encode(
              convert_to(
                (
                  (
                    array_agg(
                      "_root"."__cursor"
                      ORDER BY
                        "_root"."__rn" DESC
                    )
                  ) [1]
                )::text,
                'UTF8'
              ),
              'base64'
            ),
            chr(10),
            ''
          )
        )
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
                  "public"."author" AS "_root"
              ) AS "_root"
          ) AS "_root"
        ORDER BY
          "_root"."__rn" ASC
        LIMIT
          1
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          translate(
            encode(
              convert_to(
                (json_build_array(1, 'public'::text, 'author'::text, "_root"."id"))::text,
                'UTF8'
              ),
              'base64'
            ),
            chr(10),
            ''
          ) AS "id",
          "_root"."name" AS "name"
      ) AS "_0_e"
  )::text AS "0";
