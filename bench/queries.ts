// The six bench queries: GraphQL text for the engine, and one hand-written SQL statement per query for the ceiling
// that builds the engine's expected response body ({"data": ...}, keys in selection order) inside Postgres.

export interface BenchQuery {
  name: string; // also the GraphQL operation name, which the ceiling routes on
  description: string;
  graphql: string;
  variables: Record<string, unknown>;
  sql: string;
  /** Variable names in $1, $2, ... order for `sql`. */
  params: string[];
}

/** Variables of the queries that take some, chosen to exist at every scale (ids are 1-based, genres fixed at 25). */
const Q2_ID = 1;
const Q4_GENRE = 3;
const Q4_MIN_MS = 300000;
const Q5_ARTIST = 1;

// `coalesce(json_agg(...), '[]')` mirrors the engine's empty-array answer for a list with no rows.
export const QUERIES: BenchQuery[] = [
  {
    name: 'Q1',
    description: 'first 20 artists ordered by id',
    graphql: `query Q1 {
  artist(limit: 20, order_by: {id: asc}) {
    id
    name
  }
}`,
    variables: {},
    params: [],
    sql: `SELECT json_build_object('data', json_build_object('artist',
  (SELECT coalesce(json_agg(json_build_object('id', a.id, 'name', a.name) ORDER BY a.id), '[]')
     FROM (SELECT id, name FROM artist ORDER BY id LIMIT 20) a)))::text AS body`,
  },
  {
    name: 'Q2',
    description: 'one track by primary key',
    graphql: `query Q2($id: Int!) {
  track_by_pk(id: $id) {
    id
    name
    composer
    milliseconds
    bytes
    unit_price
  }
}`,
    variables: { id: Q2_ID },
    params: ['id'],
    sql: `SELECT json_build_object('data', json_build_object('track_by_pk',
  (SELECT json_build_object('id', t.id, 'name', t.name, 'composer', t.composer, 'milliseconds', t.milliseconds,
                            'bytes', t.bytes, 'unit_price', t.unit_price)
     FROM track t WHERE t.id = $1::integer)))::text AS body`,
  },
  {
    name: 'Q3',
    description: '10 artists with their albums with their tracks',
    graphql: `query Q3 {
  artist(limit: 10, order_by: {id: asc}) {
    id
    name
    albums(order_by: {id: asc}) {
      id
      title
      tracks(order_by: {id: asc}) {
        id
        name
        milliseconds
      }
    }
  }
}`,
    variables: {},
    params: [],
    sql: `SELECT json_build_object('data', json_build_object('artist',
  (SELECT coalesce(json_agg(json_build_object('id', a.id, 'name', a.name, 'albums',
            (SELECT coalesce(json_agg(json_build_object('id', al.id, 'title', al.title, 'tracks',
                      (SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'milliseconds', t.milliseconds)
                                                ORDER BY t.id), '[]')
                         FROM track t WHERE t.album_id = al.id)) ORDER BY al.id), '[]')
               FROM album al WHERE al.artist_id = a.id)) ORDER BY a.id), '[]')
     FROM (SELECT id, name FROM artist ORDER BY id LIMIT 10) a)))::text AS body`,
  },
  {
    name: 'Q4',
    description: 'tracks filtered on genre and length, ordered, limit 50',
    graphql: `query Q4($genreId: Int!, $minMs: Int!) {
  track(where: {genre_id: {_eq: $genreId}, milliseconds: {_gt: $minMs}}, order_by: [{milliseconds: desc}, {id: asc}], limit: 50) {
    id
    name
    album_id
    milliseconds
    unit_price
  }
}`,
    variables: { genreId: Q4_GENRE, minMs: Q4_MIN_MS },
    params: ['genreId', 'minMs'],
    sql: `SELECT json_build_object('data', json_build_object('track',
  (SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'album_id', t.album_id,
                                              'milliseconds', t.milliseconds, 'unit_price', t.unit_price)
                            ORDER BY t.milliseconds DESC, t.id), '[]')
     FROM (SELECT id, name, album_id, milliseconds, unit_price FROM track
            WHERE genre_id = $1::integer AND milliseconds > $2::integer
            ORDER BY milliseconds DESC, id LIMIT 50) t)))::text AS body`,
  },
  {
    name: 'Q5',
    description: "count/avg/max over one artist's tracks",
    graphql: `query Q5($artistId: Int!) {
  track_aggregate(where: {album: {artist_id: {_eq: $artistId}}}) {
    aggregate {
      count
      avg {
        milliseconds
        unit_price
      }
      max {
        milliseconds
      }
    }
  }
}`,
    variables: { artistId: Q5_ARTIST },
    params: ['artistId'],
    sql: `SELECT json_build_object('data', json_build_object('track_aggregate', json_build_object('aggregate',
  json_build_object('count', count(*),
                    'avg', json_build_object('milliseconds', avg(t.milliseconds), 'unit_price', avg(t.unit_price)),
                    'max', json_build_object('milliseconds', max(t.milliseconds))))))::text AS body
  FROM track t JOIN album al ON al.id = t.album_id
 WHERE al.artist_id = $1::integer`,
  },
  {
    name: 'Q6',
    description: '5 customers with invoices with lines with track with album with artist',
    graphql: `query Q6 {
  customer(limit: 5, order_by: {id: asc}) {
    id
    first_name
    last_name
    email
    invoices(order_by: {id: asc}) {
      id
      invoice_date
      total
      lines(order_by: {id: asc}) {
        id
        quantity
        unit_price
        track {
          id
          name
          album {
            id
            title
            artist {
              id
              name
            }
          }
        }
      }
    }
  }
}`,
    variables: {},
    params: [],
    sql: `SELECT json_build_object('data', json_build_object('customer',
  (SELECT coalesce(json_agg(json_build_object('id', c.id, 'first_name', c.first_name, 'last_name', c.last_name,
                                              'email', c.email, 'invoices',
      (SELECT coalesce(json_agg(json_build_object('id', i.id, 'invoice_date', i.invoice_date, 'total', i.total, 'lines',
          (SELECT coalesce(json_agg(json_build_object('id', l.id, 'quantity', l.quantity, 'unit_price', l.unit_price,
                   'track', json_build_object('id', t.id, 'name', t.name,
                      'album', json_build_object('id', al.id, 'title', al.title,
                         'artist', json_build_object('id', ar.id, 'name', ar.name)))) ORDER BY l.id), '[]')
             FROM invoice_line l
             JOIN track t ON t.id = l.track_id
             JOIN album al ON al.id = t.album_id
             JOIN artist ar ON ar.id = al.artist_id
            WHERE l.invoice_id = i.id)) ORDER BY i.id), '[]')
         FROM invoice i WHERE i.customer_id = c.id)) ORDER BY c.id), '[]')
     FROM (SELECT id, first_name, last_name, email FROM customer ORDER BY id LIMIT 5) c)))::text AS body`,
  },
];

/** The engine's request body for a query. */
export function graphqlBody(q: BenchQuery): string {
  return JSON.stringify({ query: q.graphql, variables: q.variables, operationName: q.name });
}

export function selectQueries(only: string[] | null): BenchQuery[] {
  if (!only) return QUERIES;
  const unknown = only.filter((n) => !QUERIES.some((q) => q.name === n));
  if (unknown.length) throw new Error(`unknown queries: ${unknown.join(', ')} (known: ${QUERIES.map((q) => q.name).join(', ')})`);
  return QUERIES.filter((q) => only.includes(q.name));
}
