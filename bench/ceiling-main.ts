// Entry point that runs the ceiling in its own process (so it does not share an event loop with the load driver).
// Env: BENCH_CEILING_DATABASE_URL, BENCH_CEILING_PORT, BENCH_CEILING_POOL, BENCH_CEILING_FLOOR_LOG (floor mode, its
// http-log file). Prints one JSON line when ready.
import { startCeiling } from './ceiling.js';

const databaseUrl = process.env.BENCH_CEILING_DATABASE_URL;
if (!databaseUrl) throw new Error('BENCH_CEILING_DATABASE_URL is required');
const ceiling = await startCeiling({
  databaseUrl,
  port: Number(process.env.BENCH_CEILING_PORT ?? 0),
  poolSize: Number(process.env.BENCH_CEILING_POOL ?? 10),
  floorLog: process.env.BENCH_CEILING_FLOOR_LOG || undefined,
});
process.stdout.write(`${JSON.stringify({ msg: 'ceiling.ready', url: ceiling.url, pid: process.pid })}\n`);
const stop = () => void ceiling.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
