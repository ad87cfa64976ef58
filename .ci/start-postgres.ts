// Starts the embedded Postgres for CI, writes a server-level URL (database postgres) to the file named in argv[2],
// and keeps it running until this process is killed.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../src/embedded-postgres.js';

const port = Number(process.env.CI_PG_PORT ?? 54329);
const db = await startEmbeddedPostgres({ dataDir: path.join(tmpdir(), `engine-ci-pg-${port}`), port });
const url = new URL(db.url);
url.pathname = '/postgres';
writeFileSync(process.argv[2], url.toString());
const stop = (): void => void db.stop().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => undefined, 1 << 30);
