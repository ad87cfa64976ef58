// Starts the embedded Postgres in a process of its own (so a test can give it resource limits) and stops it again:
// every log line and the outcome as one JSON line each on stdout. Options as JSON in EMBEDDED_OPTIONS.
import { startEmbeddedPostgres, type EmbeddedOptions } from '../../src/startup/embedded-postgres.js';

const say = (o: Record<string, unknown>): void => void process.stdout.write(`${JSON.stringify(o)}\n`);
const options = JSON.parse(process.env.EMBEDDED_OPTIONS ?? '{}') as EmbeddedOptions;
try {
  const db = await startEmbeddedPostgres({ ...options, onLog: (line) => say({ log: line }) });
  say({ started: { dataDir: db.dataDir, relocatedFrom: db.relocatedFrom } });
  await db.stop();
} catch (e) {
  say({ failed: (e as Error).message });
  process.exitCode = 1;
}
