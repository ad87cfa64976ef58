// Exits 0 when a Postgres answers at the given URL (used by .ci/run).
import pg from 'pg';

const c = new pg.Client({ connectionString: process.argv[2], connectionTimeoutMillis: 3000 });
try {
  await c.connect();
  await c.query('SELECT 1');
  await c.end();
  process.exit(0);
} catch {
  process.exit(1);
}
