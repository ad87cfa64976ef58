SELECT
  (
    SELECT
      coalesce(
        json_agg(
          row_to_json("_3_e")
          ORDER BY
            (
              SELECT
                count(*)
              FROM
                "public"."article" AS "_0_articles"
              WHERE
                "_0_articles"."author_id" = "_root"."id"
                AND true
            ) DESC NULLS FIRST,
            "_root"."id" ASC NULLS LAST
        ),
        '[]'
      ) AS "json"
    FROM
      (
        SELECT
          "_root"."name",
          "_root"."id"
        FROM
          "public"."author" AS "_root"
      ) AS "_root"
      LEFT JOIN LATERAL (
        SELECT
          json_build_object(
            'aggregate',
            json_build_object(
              'count',
              count(*),
              'max',
              json_build_object('id', max("_1_articles_aggregate"."id"))
            ),
            'nodes',
            coalesce(json_agg(row_to_json("_2_e")), '[]')
          ) AS "json"
        FROM
          (
            SELECT
              "_1_articles_aggregate"."id",
              "_1_articles_aggregate"."title"
            FROM
              "public"."article" AS "_1_articles_aggregate"
            WHERE
              "_1_articles_aggregate"."author_id" = "_root"."id"
              AND ("_1_articles_aggregate"."is_published" = $1::"bool")
          ) AS "_1_articles_aggregate"
          CROSS JOIN LATERAL (
            SELECT
              "_1_articles_aggregate"."title" AS "title"
          ) AS "_2_e"
      ) AS "_1_articles_aggregate.j" ON true
      CROSS JOIN LATERAL (
        SELECT
          "_root"."name" AS "name",
          "_1_articles_aggregate.j"."json" AS "articles_aggregate"
      ) AS "_3_e"
  )::text AS "0";
-- $1 = {"kind":"const","value":"true"}
