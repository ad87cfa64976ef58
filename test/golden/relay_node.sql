SELECT
  (
    SELECT
      row_to_json("_2_e") AS "json"
    FROM
      (
        SELECT
          "_root"."id",
          "_root"."name"
        FROM
          "public"."author" AS "_root"
        WHERE
          ("_root"."id" = $1::"int4")
      ) AS "_root"
      LEFT JOIN LATERAL (
        SELECT
          json_build_object(
            'edges',
            coalesce(
              json_agg(
                json_build_object('node', row_to_json("_1_e"))
                ORDER BY
                  "_0_articles_connection"."__rn"
              ),
              '[]'
            )
          ) AS "json"
        FROM
          (
            SELECT
              *
            FROM
              (
                SELECT
                  "_0_articles_connection".*,
                  json_build_object('id', "_0_articles_connection"."id") AS "__cursor",
                  "_0_articles_connection"."id" AS "__ob_0",
                  row_number() OVER (
                    ORDER BY
                      "_0_articles_connection"."id" ASC NULLS LAST
                  ) AS "__rn",
                  count(*) OVER () AS "__total"
                FROM
                  (
                    SELECT
                      "_0_articles_connection".*
                    FROM
                      "public"."article" AS "_0_articles_connection"
                    WHERE
                      "_0_articles_connection"."author_id" = "_root"."id"
                  ) AS "_0_articles_connection"
              ) AS "_0_articles_connection"
            ORDER BY
              "_0_articles_connection"."__rn" ASC
            LIMIT
              1
          ) AS "_0_articles_connection"
          CROSS JOIN LATERAL (
            SELECT
              "_0_articles_connection"."title" AS "title"
          ) AS "_1_e"
      ) AS "_0_articles_connection.j" ON true
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
          "_root"."name" AS "name",
          "_0_articles_connection.j"."json" AS "articles_connection"
      ) AS "_2_e"
  )::text AS "0";
-- $1 = {"kind":"const","value":"1"}
