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
          'hasPreviousPage',
          coalesce(min("_root"."__rn") > 1, false),
          'startCursor',
          translate(
            encode(
              convert_to(
                (
                  (
                    array_agg(
                      "_root"."__cursor"
                      ORDER BY
                        "_root"."__rn" ASC
                    )
                  ) [1]
                )::text,
                'UTF8'
              ),
              'base64'
            ),
            chr(10),
            ''
          ),
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
                  "public"."article" AS "_root"
              ) AS "_root"
          ) AS "_root"
        WHERE
          (
            ("_root"."__ob_0" > $1::"int4")
            OR (
              ("_root"."__ob_0" = $1::"int4")
              AND false
            )
          )
        ORDER BY
          "_root"."__rn" ASC
        LIMIT
          2
      ) AS "_root"
      CROSS JOIN LATERAL (
        SELECT
          translate(
            encode(
              convert_to(
                (json_build_array(1, 'public'::text, 'article'::text, "_root"."id"))::text,
                'UTF8'
              ),
              'base64'
            ),
            chr(10),
            ''
          ) AS "id",
          "_root"."title" AS "title"
      ) AS "_0_e"
  )::text AS "0";
-- $1 = {"kind":"const","value":"1"}
