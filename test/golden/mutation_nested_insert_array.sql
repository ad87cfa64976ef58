-- statement 1
WITH
  "_0_ins_author" AS (
    INSERT INTO
      "public"."author" AS "_t" ("name")
    VALUES
      ($1::text::"text")
    RETURNING
      "_t".*
  ),
  "_1_ins_article" AS (
    INSERT INTO
      "public"."article" AS "_t" ("title", "author_id", "is_published")
    VALUES
      (
        $2::text::"text",
        (
          SELECT
            "x"."id"
          FROM
            "_0_ins_author" AS "x"
        ),
        DEFAULT
      ),
      (
        $3::text::"text",
        (
          SELECT
            "x"."id"
          FROM
            "_0_ins_author" AS "x"
        ),
        $4::text::"bool"
      )
    RETURNING
      "_t".*
  )
SELECT
  json_build_object(
    'affected_rows',
    "_c"."n",
    'rows',
    (
      SELECT
        coalesce(json_agg("_x"), '[]')
      FROM
        "_0_ins_author" AS "_x"
    )
  )::text
FROM
  (
    SELECT
      (set_config('engine.user', $5, true) IS NULL)::int + (
        SELECT
          count(*)
        FROM
          "_0_ins_author"
      ) + (
        SELECT
          count(*)
        FROM
          "_1_ins_article"
      ) AS "n"
  ) AS "_c";
-- $1 = {"kind":"const","value":"N"}
-- $2 = {"kind":"const","value":"a1"}
-- $3 = {"kind":"const","value":"a2"}
-- $4 = {"kind":"const","value":"true"}
-- $5 = {"kind":"session_object"}

-- statement 2
WITH
  "_2_rows" AS (
    SELECT
      *
    FROM
      json_populate_recordset(NULL::"public"."author", $1::json -> 'rows')
  )
SELECT
  (
    (
      SELECT
        row_to_json("_5_e") AS "json"
      FROM
        (
          SELECT
            "_root"."id"
          FROM
            "_2_rows" AS "_root"
        ) AS "_root"
        LEFT JOIN LATERAL (
          SELECT
            coalesce(
              json_agg(
                row_to_json("_4_e")
                ORDER BY
                  "_3_articles"."id" ASC NULLS LAST
              ),
              '[]'
            ) AS "json"
          FROM
            (
              SELECT
                "_3_articles"."title",
                "_3_articles"."id"
              FROM
                "public"."article" AS "_3_articles"
              WHERE
                "_3_articles"."author_id" = "_root"."id"
            ) AS "_3_articles"
            CROSS JOIN LATERAL (
              SELECT
                "_3_articles"."title" AS "title"
            ) AS "_4_e"
        ) AS "_3_articles.j" ON true
        CROSS JOIN LATERAL (
          SELECT
            "_root"."id" AS "id",
            "_3_articles.j"."json" AS "articles"
        ) AS "_5_e"
    )
  )::text;
-- $1 = {"kind":"variable","name":"$previous","path":[],"pgType":{"type":"text","typeSchema":"pg_catalog","array":false}}
