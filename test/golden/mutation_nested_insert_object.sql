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
      "public"."article" AS "_t" ("title", "author_id")
    VALUES
      (
        $2::text::"text",
        (
          SELECT
            "x"."id"
          FROM
            "_0_ins_author" AS "x"
        )
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
        "_1_ins_article" AS "_x"
    )
  )::text
FROM
  (
    SELECT
      (set_config('engine.user', $3, true) IS NULL)::int + (
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
-- $1 = {"kind":"const","value":"M"}
-- $2 = {"kind":"const","value":"t"}
-- $3 = {"kind":"session_object"}

-- statement 2
WITH
  "_2_rows" AS (
    SELECT
      *
    FROM
      json_populate_recordset(NULL::"public"."article", $1::json -> 'rows')
  )
SELECT
  (
    (
      SELECT
        row_to_json("_5_e") AS "json"
      FROM
        (
          SELECT
            "_root"."id",
            "_root"."author_id"
          FROM
            "_2_rows" AS "_root"
        ) AS "_root"
        LEFT JOIN LATERAL (
          SELECT
            row_to_json("_4_e") AS "json"
          FROM
            (
              SELECT
                "_3_author"."name"
              FROM
                "public"."author" AS "_3_author"
              WHERE
                "_3_author"."id" = "_root"."author_id"
              LIMIT
                1
            ) AS "_3_author"
            CROSS JOIN LATERAL (
              SELECT
                "_3_author"."name" AS "name"
            ) AS "_4_e"
        ) AS "_3_author.j" ON true
        CROSS JOIN LATERAL (
          SELECT
            "_root"."id" AS "id",
            "_3_author.j"."json" AS "author"
        ) AS "_5_e"
    )
  )::text;
-- $1 = {"kind":"variable","name":"$previous","path":[],"pgType":{"type":"text","typeSchema":"pg_catalog","array":false}}
