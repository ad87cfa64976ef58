// Deterministic music-store dataset (artist … invoice_line), generated inside Postgres from a seeded hash of each row id.
import pg from 'pg';
import { log } from './log.js';
import { withDatabase } from './config.js';

/** Bump when the schema or any generated value changes: an existing database with another version is regenerated. */
export const GENERATOR_VERSION = '2';

export interface DatasetOptions {
  scale: number;
  seed: number;
}

export interface DatasetSize {
  artists: number;
  albums: number;
  tracks: number;
  genres: number;
  mediaTypes: number;
  customers: number;
  invoices: number;
  invoiceLines: number;
}

/** Row counts for a scale; scale 1 is 500k tracks and 1M invoice lines. */
export function datasetSize(scale: number): DatasetSize {
  const n = (base: number) => Math.max(1, Math.round(base * scale));
  return {
    artists: n(10_000),
    albums: n(50_000),
    tracks: n(500_000),
    genres: GENRES.length,
    mediaTypes: MEDIA_TYPES.length,
    customers: n(50_000),
    invoices: n(200_000),
    invoiceLines: n(1_000_000),
  };
}

/** Tables in dependency order (children last). */
export const TABLES = ['artist', 'album', 'genre', 'media_type', 'track', 'customer', 'invoice', 'invoice_line'] as const;

const GENRES = [
  'Rock', 'Jazz', 'Metal', 'Alternative & Punk', 'Rock And Roll', 'Blues', 'Latin', 'Reggae', 'Pop', 'Soundtrack',
  'Bossa Nova', 'Easy Listening', 'Heavy Metal', 'R&B/Soul', 'Electronica/Dance', 'World', 'Hip Hop/Rap',
  'Science Fiction', 'TV Shows', 'Sci Fi & Fantasy', 'Drama', 'Comedy', 'Alternative', 'Classical', 'Opera',
];
const MEDIA_TYPES = ['MPEG audio file', 'Protected AAC audio file', 'Protected MPEG-4 video file', 'Purchased AAC audio file', 'AAC audio file'];
const WORDS = [
  'black', 'white', 'red', 'blue', 'golden', 'silver', 'broken', 'electric', 'silent', 'wild', 'lonely', 'burning',
  'midnight', 'morning', 'summer', 'winter', 'river', 'mountain', 'ocean', 'desert', 'city', 'garden', 'highway', 'thunder',
  'heart', 'dream', 'shadow', 'fire', 'stone', 'glass', 'iron', 'velvet', 'angel', 'devil', 'ghost', 'king', 'queen',
  'child', 'rider', 'machine', 'light', 'rain', 'storm', 'star', 'moon', 'sun', 'wind', 'road', 'song', 'dance', 'love',
  'time', 'night', 'day', 'home', 'sky', 'wolf', 'tiger', 'raven', 'rose', 'echo', 'signal', 'paper', 'crystal',
];
const FIRST_NAMES = [
  'Ada', 'Ben', 'Carla', 'Diego', 'Eva', 'Frank', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kara', 'Luis', 'Mia', 'Nils',
  'Olga', 'Pablo', 'Quinn', 'Rosa', 'Sven', 'Tara', 'Umar', 'Vera', 'Wim', 'Xena', 'Yusuf', 'Zoe', 'Aiko', 'Bruno',
  'Chloe', 'Dmitri', 'Elena', 'Farid',
];
const LAST_NAMES = [
  'Almeida', 'Brooks', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'Gomez', 'Hansen', 'Ivanov', 'Jensen', 'Kowalski',
  'Larsen', 'Moreau', 'Novak', 'Olsen', 'Peeters', 'Quintero', 'Rossi', 'Schmidt', 'Tanaka', 'Ueda', 'Varga',
  'Weber', 'Xu', 'Young', 'Zimmermann', 'Andersson', 'Bianchi', 'Chen', 'Dahl', 'Evans', 'Fontaine',
];
const COUNTRIES = [
  'Argentina', 'Australia', 'Austria', 'Belgium', 'Brazil', 'Canada', 'Chile', 'Czech Republic', 'Denmark', 'Finland',
  'France', 'Germany', 'Hungary', 'India', 'Ireland', 'Italy', 'Netherlands', 'Norway', 'Poland', 'Portugal', 'Spain',
  'Sweden', 'United Kingdom', 'USA',
];

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const arr = (xs: string[]) => `ARRAY[${xs.map(lit).join(',')}]::text[]`;

/**
 * Helper functions: a seeded 32-bit hash of (row id, column salt), and picks from fixed word lists. The hash is
 * Postgres's own seeded integer hash (the one hash partitioning relies on, so it is stable across platforms).
 */
function functionsSql(seed: number): string {
  // Single-expression SQL functions, so Postgres inlines them into the INSERT ... SELECT.
  return `
CREATE OR REPLACE FUNCTION bench_hash(id bigint, salt integer) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT hashint8extended(id * 1000 + salt, ${seed}) & 4294967295 $$;
CREATE OR REPLACE FUNCTION bench_pick(words text[], id bigint, salt integer) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT words[1 + bench_hash(id, salt) % cardinality(words)] $$;
CREATE OR REPLACE FUNCTION bench_price(track_id bigint) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN bench_hash(track_id, 13) % 10 = 0 THEN 1.99 ELSE 0.99 END::numeric(10,2) $$;
`;
}

const SCHEMA_SQL = `
CREATE TABLE artist (id integer NOT NULL, name text NOT NULL);
CREATE TABLE album (id integer NOT NULL, title text NOT NULL, artist_id integer NOT NULL);
CREATE TABLE genre (id integer NOT NULL, name text NOT NULL);
CREATE TABLE media_type (id integer NOT NULL, name text NOT NULL);
CREATE TABLE track (
  id integer NOT NULL, name text NOT NULL, album_id integer NOT NULL, media_type_id integer NOT NULL,
  genre_id integer NOT NULL, composer text, milliseconds integer NOT NULL, bytes integer NOT NULL,
  unit_price numeric(10,2) NOT NULL);
CREATE TABLE customer (
  id integer NOT NULL, first_name text NOT NULL, last_name text NOT NULL, email text NOT NULL, country text NOT NULL);
CREATE TABLE invoice (
  id integer NOT NULL, customer_id integer NOT NULL, invoice_date timestamp NOT NULL, billing_country text NOT NULL,
  total numeric(10,2) NOT NULL);
CREATE TABLE invoice_line (
  id integer NOT NULL, invoice_id integer NOT NULL, track_id integer NOT NULL, unit_price numeric(10,2) NOT NULL,
  quantity integer NOT NULL);
`;

function loadSteps(s: DatasetSize): { table: string; rows: number; sql: string }[] {
  const W = arr(WORDS);
  return [
    { table: 'genre', rows: s.genres, sql: `INSERT INTO genre SELECT i, n FROM unnest(${arr(GENRES)}) WITH ORDINALITY AS u(n, i)` },
    { table: 'media_type', rows: s.mediaTypes, sql: `INSERT INTO media_type SELECT i, n FROM unnest(${arr(MEDIA_TYPES)}) WITH ORDINALITY AS u(n, i)` },
    {
      table: 'artist',
      rows: s.artists,
      sql: `INSERT INTO artist SELECT g, initcap(bench_pick(${W}, g, 1) || ' ' || bench_pick(${W}, g, 2))
            FROM generate_series(1, ${s.artists}) g`,
    },
    {
      table: 'album',
      rows: s.albums,
      sql: `INSERT INTO album SELECT g, initcap(bench_pick(${W}, g, 3) || ' ' || bench_pick(${W}, g, 4) || ' ' || bench_pick(${W}, g, 5)),
              1 + bench_hash(g, 6) % ${s.artists}
            FROM generate_series(1, ${s.albums}) g`,
    },
    {
      table: 'track',
      rows: s.tracks,
      sql: `INSERT INTO track SELECT g, initcap(bench_pick(${W}, g, 7) || ' ' || bench_pick(${W}, g, 8)),
              1 + bench_hash(g, 9) % ${s.albums}, 1 + bench_hash(g, 10) % ${s.mediaTypes}, 1 + bench_hash(g, 11) % ${s.genres},
              CASE WHEN bench_hash(g, 12) % 4 = 0 THEN NULL
                   ELSE bench_pick(${arr(FIRST_NAMES)}, g, 14) || ' ' || bench_pick(${arr(LAST_NAMES)}, g, 15) END,
              ms, ms * (16 + (bench_hash(g, 16) % 16)::integer), bench_price(g)
            FROM generate_series(1, ${s.tracks}) g, LATERAL (SELECT (60000 + bench_hash(g, 17) % 540000)::integer AS ms) m`,
    },
    {
      table: 'customer',
      rows: s.customers,
      sql: `INSERT INTO customer SELECT g, f, l, lower(f) || '.' || lower(l) || g || '@example.com', bench_pick(${arr(COUNTRIES)}, g, 22)
            FROM generate_series(1, ${s.customers}) g,
            LATERAL (SELECT bench_pick(${arr(FIRST_NAMES)}, g, 20) AS f, bench_pick(${arr(LAST_NAMES)}, g, 21) AS l) n`,
    },
    {
      table: 'invoice_line',
      rows: s.invoiceLines,
      sql: `INSERT INTO invoice_line SELECT g, 1 + bench_hash(g, 30) % ${s.invoices}, t, bench_price(t),
              CASE WHEN bench_hash(g, 32) % 10 = 0 THEN 2 ELSE 1 END
            FROM generate_series(1, ${s.invoiceLines}) g, LATERAL (SELECT 1 + bench_hash(g, 31) % ${s.tracks} AS t) x`,
    },
    {
      table: 'invoice',
      rows: s.invoices,
      sql: `INSERT INTO invoice SELECT g, 1 + bench_hash(g, 40) % ${s.customers},
              timestamp '2020-01-01 00:00:00' + make_interval(secs => bench_hash(g, 41) % (4 * 365 * 86400)),
              bench_pick(${arr(COUNTRIES)}, g, 42), coalesce(l.total, 0)
            FROM generate_series(1, ${s.invoices}) g
            LEFT JOIN (SELECT invoice_id, sum(unit_price * quantity) AS total FROM invoice_line GROUP BY invoice_id) l
              ON l.invoice_id = g`,
    },
  ];
}

/** Keys, foreign keys and an index on every foreign-key column; added after loading because that is much faster. */
const CONSTRAINTS_SQL = [
  ...TABLES.map((t) => `ALTER TABLE ${t} ADD PRIMARY KEY (id)`),
  'ALTER TABLE album ADD CONSTRAINT album_artist_id_fkey FOREIGN KEY (artist_id) REFERENCES artist (id)',
  'ALTER TABLE track ADD CONSTRAINT track_album_id_fkey FOREIGN KEY (album_id) REFERENCES album (id)',
  'ALTER TABLE track ADD CONSTRAINT track_media_type_id_fkey FOREIGN KEY (media_type_id) REFERENCES media_type (id)',
  'ALTER TABLE track ADD CONSTRAINT track_genre_id_fkey FOREIGN KEY (genre_id) REFERENCES genre (id)',
  'ALTER TABLE invoice ADD CONSTRAINT invoice_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customer (id)',
  'ALTER TABLE invoice_line ADD CONSTRAINT invoice_line_invoice_id_fkey FOREIGN KEY (invoice_id) REFERENCES invoice (id)',
  'ALTER TABLE invoice_line ADD CONSTRAINT invoice_line_track_id_fkey FOREIGN KEY (track_id) REFERENCES track (id)',
  'CREATE INDEX album_artist_id_idx ON album (artist_id)',
  'CREATE INDEX track_album_id_idx ON track (album_id)',
  'CREATE INDEX track_media_type_id_idx ON track (media_type_id)',
  // genre_id leads, so this also serves as the foreign-key index; milliseconds serves Q4's filter and order.
  'CREATE INDEX track_genre_id_milliseconds_idx ON track (genre_id, milliseconds)',
  'CREATE INDEX invoice_customer_id_idx ON invoice (customer_id)',
  'CREATE INDEX invoice_line_invoice_id_idx ON invoice_line (invoice_id)',
  'CREATE INDEX invoice_line_track_id_idx ON invoice_line (track_id)',
];

interface Marker {
  generator_version: string;
  scale: number;
  seed: number;
}

async function readMarker(client: pg.Client): Promise<Marker | null> {
  const exists = await client.query(`SELECT to_regclass('public.bench_meta') IS NOT NULL AS e`);
  if (!exists.rows[0].e) return null;
  const r = await client.query('SELECT generator_version, scale::float8 AS scale, seed FROM bench_meta LIMIT 1');
  return (r.rows[0] as Marker | undefined) ?? null;
}

/** Drops and regenerates the dataset in the database at `url` (which must exist). */
export async function generateDataset(url: string, opts: DatasetOptions): Promise<DatasetSize> {
  if (!Number.isInteger(opts.seed)) throw new Error(`seed must be an integer, got ${opts.seed}`);
  const size = datasetSize(opts.scale);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const started = Date.now();
  try {
    await client.query('SET synchronous_commit = off');
    await client.query(`SET client_min_messages = warning`);
    await client.query(`DROP TABLE IF EXISTS bench_meta, ${[...TABLES].reverse().join(', ')} CASCADE`);
    await client.query(functionsSql(opts.seed));
    await client.query(SCHEMA_SQL);
    log('dataset.schema', { tables: TABLES.length });
    for (const step of loadSteps(size)) {
      const t0 = Date.now();
      const r = await client.query(step.sql);
      if (r.rowCount !== step.rows) throw new Error(`${step.table}: inserted ${r.rowCount} rows, expected ${step.rows}`);
      log('dataset.load', { table: step.table, rows: step.rows, ms: Date.now() - t0 });
    }
    for (const sql of CONSTRAINTS_SQL) {
      const t0 = Date.now();
      await client.query(sql);
      log('dataset.constraint', { sql, ms: Date.now() - t0 });
    }
    const t0 = Date.now();
    await client.query(`VACUUM ANALYZE ${TABLES.join(', ')}`);
    log('dataset.analyze', { ms: Date.now() - t0 });
    await client.query(`CREATE TABLE bench_meta (generator_version text NOT NULL, scale numeric NOT NULL, seed integer NOT NULL,
      sizes jsonb NOT NULL, generated_at timestamptz NOT NULL DEFAULT now())`);
    await client.query('INSERT INTO bench_meta (generator_version, scale, seed, sizes) VALUES ($1, $2, $3, $4)', [
      GENERATOR_VERSION, opts.scale, opts.seed, JSON.stringify(size),
    ]);
    log('dataset.done', { ...size, ms: Date.now() - started });
    return size;
  } finally {
    await client.end();
  }
}

/**
 * Makes sure `database` on the server of `adminUrl` holds the dataset for these options: creates the database if it is
 * missing and regenerates only when the marker (generator version, scale, seed) differs. Returns the database's URL.
 */
export async function ensureDataset(adminUrl: string, database: string, opts: DatasetOptions): Promise<{ url: string; generated: boolean; size: DatasetSize }> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const r = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (r.rowCount === 0) {
      await admin.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
      log('dataset.database_created', { database });
    }
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, database);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let marker: Marker | null;
  try {
    marker = await readMarker(client);
  } finally {
    await client.end();
  }
  if (marker && marker.generator_version === GENERATOR_VERSION && Number(marker.scale) === opts.scale && marker.seed === opts.seed) {
    log('dataset.present', { database, generator_version: GENERATOR_VERSION, scale: opts.scale, seed: opts.seed });
    return { url, generated: false, size: datasetSize(opts.scale) };
  }
  log('dataset.generate', { database, generator_version: GENERATOR_VERSION, scale: opts.scale, seed: opts.seed, previous: marker });
  const size = await generateDataset(url, opts);
  return { url, generated: true, size };
}
