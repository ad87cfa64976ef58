// POST /v1alpha1/pg_dump (pgdump API, admin only): runs pg_dump with the given options against the engine's
// database and answers the SQL text; clean_output drops comments, SET lines and the public schema boilerplate.
import type Router from '@koa/router';
import { spawn } from 'node:child_process';
import { z } from 'zod';
import { EngineError, isEngineError, metadataErrorBody } from '../../core/errors.js';
import { readJson } from '../body.js';
import { sessionFor } from '../session.js';
import { showInternal } from '../../config/internal-errors.js';
import type { Runtime } from '../runtime.js';
import type { Session } from '../../auth/session.js';

const Body = z.object({ opts: z.array(z.string()).default([]), clean_output: z.boolean().default(false) });

// Options that would make pg_dump write files on the server or connect elsewhere.
const FORBIDDEN = /^(-f|--file|-d|--dbname|-h|--host|-p|--port|-U|--username)(=|$)|^-[fdhpU]./;

const BOILERPLATE = new Set([
  'CREATE SCHEMA public;',
  "COMMENT ON SCHEMA public IS 'standard public schema';",
  "SELECT pg_catalog.set_config('search_path', '', false);",
]);

// Note [clean_output]
// As the original: every empty line, comment line, preamble line (SET ..., set_config, the public schema's
// creation and comment) and event-trigger notify trigger is dropped; each kept line ends with a newline. Capture
// triggers are statement-level with transition tables on ordinary tables (REFERENCING ... FOR EACH STATEMENT) and
// row-level on partitioned ones (src/triggers/capture.ts); pg_dump writes either on one line. As the original's,
// the filter goes by line: the trigger functions (engine_views, as the original's hdb_views) are only in a dump
// that includes that schema, as are the engine's other schemas.
const NOTIFY_TRIGGER = /^CREATE TRIGGER "?notify_engine_.+"? AFTER \w+ ON .+ FOR EACH (ROW|STATEMENT) EXECUTE (FUNCTION|PROCEDURE) "?engine_views"?\."?notify_engine_.+"?\(\);$/;

const dropLine = (l: string): boolean =>
  l === '' || l.startsWith('--') || l.startsWith('SET ') || BOILERPLATE.has(l) || l.startsWith('\\') || NOTIFY_TRIGGER.test(l);

export function cleanDump(sql: string): string {
  return sql.split('\n').filter((l) => !dropLine(l)).map((l) => `${l}\n`).join('');
}

function runPgDump(opts: string[], databaseUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.env.ENGINE_PG_DUMP ?? 'pg_dump', [...opts, '--dbname', databaseUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => reject(new EngineError('unexpected', `cannot run pg_dump: ${e.message}`, { status: 500 })));
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new EngineError('unexpected', `pg_dump failed: ${Buffer.concat(err).toString('utf8').trim()}`, { status: 500 }));
    });
  });
}

export function pgDumpRoutes(router: Router, rt: Runtime): void {
  router.post('/v1alpha1/pg_dump', async (ctx) => {
    let session: Session | null = null;
    try {
      session = await sessionFor(ctx.req, rt);
      ctx.state.userVars = session.variables;
      const raw = await readJson(ctx);
      if (session.role !== 'admin') throw new EngineError('access-denied', 'You have to be an admin to access this endpoint');
      const parsed = Body.safeParse(raw);
      if (!parsed.success) throw new EngineError('parse-failed', parsed.error.issues[0]?.message ?? 'invalid body');
      const bad = parsed.data.opts.find((o) => FORBIDDEN.test(o));
      if (bad !== undefined) throw new EngineError('not-supported', `pg_dump option not allowed: ${bad}`, { path: '$.opts' });
      const url = rt.databaseUrl;
      const sql = await runPgDump(parsed.data.opts, url);
      ctx.type = 'application/sql';
      ctx.body = parsed.data.clean_output ? cleanDump(sql) : sql;
    } catch (e) {
      if (!isEngineError(e)) throw e;
      ctx.status = e.status;
      ctx.body = metadataErrorBody(e, showInternal(session, rt.config));
      ctx.state.error = e;
    }
  });
}
