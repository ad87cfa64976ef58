// Runs one /v1/query body inside the caller's open transaction: parses it against the operation table
// (operations.ts), reads what each operation needs (catalog, I/O), decides its events (pure, events/decide),
// runs run_sql's SQL, folds the events, rebuilds the schema cache and applies the original's consistency rules.
// The caller (write.ts) appends the returned events and commits, or rolls back when this throws.
import type pg from 'pg';
import { EngineError, isEngineError } from '../core/errors.js';
import { formatPath, type PathSegment } from '../core/json-path.js';
import type { PgCatalog } from '../catalog/types.js';
import { introspectCatalog } from '../catalog/introspect.js';
import { shareCatalog } from '../catalog/share.js';
import { catalogFingerprint, fingerprintOf, withFingerprint } from '../catalog/fingerprint.js';
import type { EngineState } from '../cache/state.js';
import type { RemoteIntrospections, SchemaCache } from '../cache/types.js';
import { buildSchemaCache, type CacheCheck } from '../cache/build.js';
import { publicInconsistencies } from '../cache/objects.js';
import { decideRunSql, shouldCheckMetadata } from '../../events/decide/sql.js';
import { enumTables, type Metadata, type TableMeta } from '../../projections/metadata.js';
import { evolveAll } from '../../projections/evolve.js';
import { ENUM_NEUTRAL, foldInPlace, oneTableEach } from './fold-in-place.js';
import { withEnumValues } from '../catalog/enum-values.js';
import { runSql, type RunSqlResult } from './run-sql.js';
import { checkMigration, migrationRef, recordMigration, type MigrationArgs } from './migrations.js';
import { ev, type Event, type MigrationRef } from '../../events/types.js';
import { accessOf, operationOf, type Check, type Decision, type Operation, type RunSqlArgs } from './operations.js';
import { Dml } from './dml/context.js';
import { TriggerSync } from '../triggers/reconcile.js';
import { reconcileCronTriggers } from '../scheduled/catalog.js';
import { jsonKind } from '../core/json-kind.js';

export interface MetadataRequestContext {
  /** A connection with an open transaction (BEGIN done by the caller; caller commits/rolls back). */
  client: pg.ClientBase;
  /** The state the decision is made on. */
  state: EngineState;
  /** The features' cache checks (the projector's): a rebuilt cache runs them as the state's did. */
  cacheChecks: readonly CacheCheck[];
  role: string;
  requestId: string;
  /** The caller's session and the stringify-numeric setting (v1 DML runs as that role). */
  session?: { role: string; variables: Record<string, string> };
  stringifyNumeric?: boolean;
}

export interface MetadataResult {
  response: unknown;
  events: Event[];
  /** After folding events. */
  state: EngineState;
}

const SUCCESS = { message: 'success' };

export async function runMetadataQuery(body: unknown, ctx: MetadataRequestContext): Promise<MetadataResult> {
  const run = new Run(ctx);
  const response = await run.query(body, []);
  // What the run changed in place is frozen once it is the state's (Note [Folding a bulk]).
  Object.freeze(run.state().metadata.tables);
  await run.triggers.sync(run.state().metadata);
  // Cron triggers' catalog rows and events follow their metadata (src/scheduled/catalog.ts).
  if (run.state().metadata.cron_triggers !== ctx.state.metadata.cron_triggers) await reconcileCronTriggers(ctx.client, run.state().metadata);
  return { response, events: run.events, state: run.state() };
}

interface Envelope {
  type: string;
  args: unknown;
  version: 1 | 2;
}

function parseEnvelope(body: unknown, base: PathSegment[]): Envelope {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new EngineError('parse-failed', `parsing Object failed, expected Object, but encountered ${jsonKind(body)}`, { path: formatPath(base) });
  }
  const b = body as Record<string, unknown>;
  if (!('type' in b)) throw new EngineError('parse-failed', 'key "type" not found', { path: formatPath(base) });
  if (typeof b.type !== 'string') {
    throw new EngineError('parse-failed', `parsing Text failed, expected String, but encountered ${jsonKind(b.type)}`, { path: formatPath([...base, 'type']) });
  }
  if (!('args' in b)) throw new EngineError('parse-failed', 'key "args" not found', { path: formatPath(base) });
  let version: 1 | 2 = 1;
  if (b.version !== undefined && b.version !== null) {
    if (b.version !== 1 && b.version !== 2) {
      throw new EngineError('parse-failed', `expected 1 or 2, encountered ${JSON.stringify(b.version)}`, { path: formatPath([...base, 'version']) });
    }
    version = b.version;
  }
  return { type: b.type, args: b.args, version };
}

/** The operation and its parser for this version; null for a type the table does not know (version 1). */
function lookup(env: Envelope): { op: Operation; parse: (raw: unknown) => unknown } | null {
  const op = operationOf(env.type);
  const parse = op?.versions[env.version];
  if (op && parse) return { op, parse };
  if (op || env.version === 2) throw new EngineError('parse-failed', `unknown query type: ${env.type} (version ${env.version})`, { path: '$' });
  return null;
}

/**
 * Parses a bulk element (envelope and args); errors carry Aeson-style paths. The parsed args are kept in `parsed`
 * under the element, for its run to take instead of parsing them again.
 */
function preParse(item: unknown, at: PathSegment[], parsed: WeakMap<object, unknown>): void {
  try {
    const env = parseEnvelope(item, []);
    const found = lookup(env);
    if (found?.op.kind === 'bulk') {
      if (Array.isArray(env.args)) env.args.forEach((x, i) => preParse(x, [...at, i], parsed));
    } else if (found) parsed.set(item as object, found.parse(env.args));
  } catch (e) {
    if (isEngineError(e) && e.code === 'parse-failed') throw e.at(formatPath(at) + e.path.slice(1));
    // Other errors (duplicates in a replace document, ...) are reported when the element runs.
    if (!isEngineError(e)) throw e;
  }
}

const MODE_NAME = { read: 'READ ONLY', write: 'READ WRITE' } as const;

class Run {
  readonly events: Event[] = [];
  private metadata: Metadata;
  private catalog: PgCatalog;
  /** The remote schemas as introspected so far: what this request introspects is kept only if it commits. */
  private remoteSchemas: RemoteIntrospections;
  private cache: SchemaCache;
  private catalogFresh = false;
  /** The tables record this run changes in place (Note [Folding a bulk]); the metadata's own while it is. */
  private working: Record<string, TableMeta> | null = null;
  /** Bulk elements' args as the bulk's parse left them (each taken once). */
  private readonly preParsed = new WeakMap<object, unknown>();
  /** Capture triggers follow the metadata before any data changes in this transaction (Note [Capture in step]). */
  readonly triggers: TriggerSync;

  constructor(private readonly ctx: MetadataRequestContext) {
    this.triggers = new TriggerSync(ctx.client, ctx.state.metadata);
    this.metadata = ctx.state.metadata;
    this.catalog = ctx.state.catalog;
    this.remoteSchemas = ctx.state.remoteSchemas;
    this.cache = ctx.state.cache;
  }

  state(): EngineState {
    return {
      seq: this.ctx.state.seq + this.events.length, metadata: this.metadata, catalog: this.catalog, remoteSchemas: this.remoteSchemas, cache: this.cache,
    };
  }

  /** Runs one query object; errors carry paths prefixed by `base` (the bulk element). */
  async query(body: unknown, base: PathSegment[]): Promise<unknown> {
    const env = parseEnvelope(body, base);
    const found = lookup(env);
    try {
      if (!found) throw new EngineError('parse-failed', `unknown query type: ${env.type}`, { path: '$.type' });
      const pre = this.preParsed.get(body as object);
      this.preParsed.delete(body as object);
      return await this.dispatch(found.op, pre !== undefined ? pre : found.parse(env.args), env.args, base);
    } catch (e) {
      if (isEngineError(e) && base.length) throw e.at(formatPath(base) + e.path.slice(1));
      throw e;
    }
  }

  private async dispatch(op: Operation, parsed: unknown, raw: unknown, base: PathSegment[]): Promise<unknown> {
    switch (op.kind) {
      case 'bulk':
        return this.bulk(raw, base);
      case 'run_sql':
        return this.runSql(parsed as RunSqlArgs);
      case 'migration':
        return this.migration(parsed as MigrationArgs);
      case 'read':
        return op.answer({ state: this.state(), client: this.ctx.client }, raw);
      case 'data':
        await this.triggers.sync(this.metadata);
        return op.run(new Dml({ ...this.ctx, state: this.state() }), raw);
      case 'event_log':
        await this.triggers.sync(this.metadata);
        return op.run({ state: this.state(), client: this.ctx.client, role: this.ctx.role, session: this.ctx.session }, parsed);
      case 'command':
        return this.command(parsed as Decision);
    }
  }

  private async bulk(raw: unknown, base: PathSegment[]): Promise<unknown[]> {
    if (!Array.isArray(raw)) {
      throw new EngineError('parse-failed', `parsing [RQLQuery] failed, expected Array, but encountered ${jsonKind(raw)}`, { path: formatPath([...base, 'args']) });
    }
    // Like the original, the whole bulk is parsed before anything runs; parse errors name the element as `$[i]`.
    raw.forEach((item, i) => preParse(item, [i], this.preParsed));
    checkAccessModes(raw, base);
    const out: unknown[] = [];
    for (let i = 0; i < raw.length; i++) out.push(await this.query(raw[i], [...base, 'args', i]));
    return out;
  }

  /** A metadata command: catalog, decide, the I/O of what was decided, then fold and check. */
  private async command(d: Decision): Promise<unknown> {
    await this.freshCatalog();
    const inconsistent = this.cache.inconsistent.flatMap((o) => (o.id ? [o.id] : []));
    const events = d.decide({ metadata: this.metadata, catalog: this.catalog, inconsistent });
    this.remoteSchemas = await d.io(process.env, { metadata: this.metadata, remoteSchemas: this.remoteSchemas });
    if (d.catalog === 'reload') this.catalog = shareCatalog(await introspectCatalog(this.ctx.client), this.catalog);
    await this.apply(events, d.check, d.enums);
    return SUCCESS;
  }

  /** A schema migration: its SQL as run_sql runs it (unless skipped) and its version row, in this transaction. */
  private async migration(a: MigrationArgs): Promise<unknown> {
    await checkMigration(this.ctx.client, a);
    const migration = migrationRef(a);
    let result: RunSqlResult | null = null;
    if (migration.skip_execution) {
      this.events.push(ev('sql_ran', { sql: '', cascade: false, check_metadata_consistency: false, read_only: false, migration }));
    } else {
      result = await this.runSql({ sql: a.sql, cascade: a.cascade }, migration);
    }
    await recordMigration(this.ctx.client, migration);
    return { version: migration.version, name: migration.name, direction: migration.direction, skip_execution: migration.skip_execution, result };
  }

  private async runSql(a: RunSqlArgs, migration?: MigrationRef): Promise<RunSqlResult> {
    const run = {
      sql: a.sql,
      cascade: a.cascade ?? false,
      check_metadata_consistency: a.check_metadata_consistency ?? null,
      read_only: a.read_only ?? false,
      ...(migration ? { migration } : {}),
    };
    if (run.read_only) return runSql(this.ctx.client, run.sql, true);
    const check = shouldCheckMetadata(run);
    if (check) await this.freshCatalog();
    const before = this.catalog;
    await this.triggers.sync(this.metadata);
    const result = await runSql(this.ctx.client, run.sql, false);
    this.triggers.markStale();
    if (!check) {
      // The original neither re-reads the catalog nor rebuilds here; later writes in this request will.
      this.events.push(...decideRunSql(run, before, before, this.metadata));
      this.catalogFresh = false;
      return result;
    }
    this.catalog = shareCatalog(await introspectCatalog(this.ctx.client), before);
    this.catalogFresh = true;
    await this.apply(decideRunSql(run, before, this.catalog, this.metadata), { mode: 'sql' }, 'all');
    return result;
  }

  // Note [Capture in step]
  // A bulk can create a trigger and then change rows (v1 DML, run_sql) in the same transaction: those changes
  // must be captured, so the Postgres triggers are reconciled before any data-changing step, not only at the end.

  // Note [Catalog freshness]
  // Decisions need the catalog as this transaction sees it (a bulk may have created the table it tracks), so
  // the first operation that decides re-reads it, and run_sql marks it stale. Enum rows are different: the
  // original reads them when it builds metadata, not on every data change, so they are carried over and only
  // re-read for the enum tables an operation touches, or for all on reload/replace/checked run_sql.
  /**
   * Re-reads the catalog once per request (and after SQL), keeping the enum rows read before; not when its fingerprint
   * says Postgres still has the catalog held (src/catalog/fingerprint.ts Note [Catalog fingerprint]).
   */
  private async freshCatalog(): Promise<void> {
    if (this.catalogFresh) return;
    const previous = this.catalog;
    const fingerprint = await catalogFingerprint(this.ctx.client);
    if (fingerprintOf(previous) !== fingerprint) {
      const read = shareCatalog(await introspectCatalog(this.ctx.client), previous);
      this.catalog = withFingerprint(await withEnumValues(this.ctx.client, enumTables(this.metadata), read, [], previous), fingerprint);
    }
    this.catalogFresh = true;
  }

  /** Folds events, rebuilds the cache and enforces the consistency rule of the operation. */
  private async apply(events: Event[], check: Check, enums: 'all' | string[] = []): Promise<void> {
    const before = this.cache;
    const keys = oneTableEach(events);
    let metadata: Metadata;
    if (keys) {
      if (this.working !== this.metadata.tables) this.working = { ...this.metadata.tables };
      metadata = foldInPlace(this.metadata, events, keys, this.working);
    } else {
      metadata = evolveAll(this.metadata, events);
      this.working = null;
    }
    // Only these events can change which tables are enums (whose rows the catalog holds).
    const enumsMayChange = enums === 'all' || enums.length > 0 || events.some((e) => !ENUM_NEUTRAL.has(e.type) && !(e.type === 'table_tracked' && !e.data.is_enum));
    const catalog = enumsMayChange ? await withEnumValues(this.ctx.client, enumTables(metadata), this.catalog, enums, this.catalog) : this.catalog;
    const cache = buildSchemaCache(metadata, catalog, this.remoteSchemas, this.ctx.cacheChecks, { previous: before, changed: keys ?? undefined, owner: this });
    enforce(check, before, cache);
    this.metadata = metadata;
    this.catalog = catalog;
    this.cache = cache;
    this.events.push(...events);
  }
}

/** Read-write and read-only sub-operations cannot share the bulk's transaction. */
function checkAccessModes(items: unknown[], base: PathSegment[]): void {
  let expected: 'read' | 'write' | null = null;
  items.forEach((item, i) => {
    const mode = accessOf(item);
    if (mode === null || mode === 'either') return;
    if (expected === null) expected = mode;
    else if (expected !== mode) {
      throw new EngineError(
        'bad-request',
        `incompatible access mode requirements in bulk query, expected access mode: ${MODE_NAME[expected]} but ${formatPath([...base, 'args', i])} forces ${MODE_NAME[mode]}`,
        { path: '$' },
      );
    }
  });
}

// Note [Consistency checks]
// The original stores an object and rebuilds: an inconsistency of that very object is a 400 constraint-violation
// (the reasons, with the objects as `internal`); other objects newly inconsistent are 400 unexpected "new
// inconsistent metadata"; after run_sql it is a 500 "newly found"; replace/drop_inconsistent allow none at all.
// Objects are compared by id, so an object that was already inconsistent before does not count as new.
function enforce(check: Check, before: SchemaCache, after: SchemaCache): void {
  if (check.mode === 'none') return;
  if (check.mode === 'strict') {
    if (after.inconsistent.length) {
      throw new EngineError('unexpected', 'cannot continue due to inconsistent metadata', {
        path: '$.args',
        internal: publicInconsistencies(after.inconsistent),
      });
    }
    return;
  }
  const old = new Set(before.inconsistent.map((o) => o.id ?? JSON.stringify(o)));
  const fresh = after.inconsistent.filter((o) => !old.has(o.id ?? JSON.stringify(o)));
  if (check.mode === 'object') {
    const matching = fresh.filter((o) => o.id === check.id);
    if (matching.length) {
      throw new EngineError('constraint-violation', matching.map((o) => o.reason).join(', '), {
        path: '$.args',
        internal: publicInconsistencies(matching),
      });
    }
  }
  // An object made inconsistent with an error of its own (a remote schema now conflicting with a table).
  const coded = fresh.find((o) => o.code !== undefined);
  if (coded?.code !== undefined) throw new EngineError(coded.code, coded.reason, { path: '$.args' });
  if (fresh.length) {
    const sql = check.mode === 'sql';
    throw new EngineError('unexpected', sql ? 'cannot continue due to newly found inconsistent metadata' : 'cannot continue due to new inconsistent metadata', {
      path: '$.args',
      status: sql ? 500 : 400,
      internal: publicInconsistencies(fresh),
    });
  }
}
