// The metadata API orchestrator: parses a /v1/query body, decides events (pure), folds them, rebuilds the schema
// cache and applies the original's consistency rules. SQL (run_sql) runs on the caller's open transaction; the
// caller appends the returned events and commits, or rolls back when this throws.
import type pg from 'pg';
import { EngineError, isEngineError } from '../core/errors.js';
import { formatPath, type PathSegment } from '../core/json-path.js';
import type { PgCatalog } from '../catalog/types.js';
import { introspectCatalog } from '../catalog/introspect.js';
import type { EngineState } from '../cache/state.js';
import type { SchemaCache } from '../cache/types.js';
import { buildSchemaCache, publicInconsistencies } from '../cache/build.js';
import { decode, args as A } from '../../events/commands.js';
import { decide, parseCommand, type Command } from '../../events/decide/index.js';
import { decideSqlRan, shouldCheckMetadata } from '../../events/decide/sql.js';
import { dropEvents, type ObjId } from '../../events/decide/common.js';
import { ev, type Event, type NewEvent } from '../../events/types.js';
import type { Metadata } from '../../projections/metadata.js';
import { evolve } from '../../projections/evolve.js';
import { exportMetadata, parseMetadataDocument } from '../../projections/export.js';
import { withEnumValues } from './enum-values.js';
import { runSql, type RunSqlResult } from './run-sql.js';
import { registeredHandler, type QueryHandler } from './handlers.js';
import { checkFamilyCommand, checkReplacedMetadata } from './families.js';
import './dml/index.js'; // registers the v1 DML operations (select, count, insert, update, delete)
import './history.js'; // registers the history operations (engine_history_list, _export, _diff)

export type { QueryHandler, QueryHandlerContext } from './handlers.js';

export interface MetadataRequestContext {
  /** A connection with an open transaction (BEGIN done by the caller; caller commits/rolls back). */
  client: pg.ClientBase;
  /** The state the decision is made on. */
  state: EngineState;
  role: string;
  requestId: string;
  /** The caller's session and the stringify-numeric setting, handed to operation handlers (v1 DML). */
  session?: { role: string; variables: Record<string, string> };
  stringifyNumeric?: boolean;
  /** Extra operations by type, and their bulk access mode ('read' = either mode). */
  handlers?: Record<string, QueryHandler>;
  readOnlyHandlers?: ReadonlySet<string>;
}

export interface MetadataResult {
  response: unknown;
  events: NewEvent[];
  /** After folding events. */
  state: EngineState;
}

const SUCCESS = { message: 'success' };

export async function runMetadataQuery(body: unknown, ctx: MetadataRequestContext): Promise<MetadataResult> {
  const run = new Run(ctx);
  const response = await run.query(body, []);
  return { response, events: run.events, state: run.state() };
}

interface Envelope {
  type: string;
  args: unknown;
  version: 1 | 2;
}

const jsonKind = (v: unknown) =>
  v === null ? 'Null' : Array.isArray(v) ? 'Array' : typeof v === 'object' ? 'Object' : typeof v === 'string' ? 'String' : typeof v === 'number' ? 'Number' : 'Boolean';

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

/** Version 2 exists only for these operations (the original's RQLQueryV2); set_table_custom_fields only in v2. */
const V2_TYPES = new Set(['track_table', 'set_table_custom_fields', 'track_function']);

function checkVersion(env: Envelope): void {
  const ok = env.version === 2 ? V2_TYPES.has(env.type) : env.type !== 'set_table_custom_fields';
  if (!ok) throw new EngineError('parse-failed', `unknown query type: ${env.type} (version ${env.version})`, { path: '$' });
}

/** Parses a bulk element (envelope and, for operations decided here, the args); errors carry Aeson-style paths. */
function preParse(item: unknown, at: PathSegment[]): void {
  try {
    const env = parseEnvelope(item, []);
    checkVersion(env);
    if (env.type === 'bulk') {
      if (Array.isArray(env.args)) env.args.forEach((x, i) => preParse(x, [...at, i]));
    } else if (env.type === 'run_sql') decode(A.run_sql, env.args);
    else if (env.type === 'replace_metadata') parseMetadataDocument(env.args);
    else parseCommand(env.type, env.version, env.args);
  } catch (e) {
    if (isEngineError(e) && e.code === 'parse-failed') throw e.at(formatPath(at) + e.path.slice(1));
    // Other errors (duplicates in a replace document, ...) are reported when the element runs.
    if (!isEngineError(e)) throw e;
  }
}

type Check = { mode: 'none' } | { mode: 'object'; id: string } | { mode: 'strict' } | { mode: 'sql' };

const READ_ONLY_TYPES = new Set(['export_metadata', 'get_inconsistent_metadata', 'dump_internal_state']);

class Run {
  readonly events: NewEvent[] = [];
  private metadata: Metadata;
  private catalog: PgCatalog;
  private cache: SchemaCache;
  private catalogFresh = false;

  constructor(private readonly ctx: MetadataRequestContext) {
    this.metadata = ctx.state.metadata;
    this.catalog = ctx.state.catalog;
    this.cache = ctx.state.cache;
  }

  state(): EngineState {
    return { seq: this.ctx.state.seq + this.events.length, metadata: this.metadata, catalog: this.catalog, cache: this.cache };
  }

  /** Runs one query object; errors carry paths prefixed by `base` (the bulk element). */
  async query(body: unknown, base: PathSegment[]): Promise<unknown> {
    const env = parseEnvelope(body, base);
    checkVersion(env);
    try {
      return await this.dispatch(env, base);
    } catch (e) {
      if (isEngineError(e) && base.length) throw e.at(formatPath(base) + e.path.slice(1));
      throw e;
    }
  }

  private async dispatch(env: Envelope, base: PathSegment[]): Promise<unknown> {
    switch (env.type) {
      case 'bulk':
        return this.bulk(env.args, base);
      case 'run_sql':
        return this.runSql(env.args);
      case 'export_metadata':
        return exportMetadata(this.metadata);
      case 'get_inconsistent_metadata':
        return { is_consistent: this.cache.inconsistent.length === 0, inconsistent_objects: publicInconsistencies(this.cache.inconsistent) };
      case 'dump_internal_state':
        return { metadata: exportMetadata(this.metadata), inconsistent_objects: publicInconsistencies(this.cache.inconsistent) };
      case 'replace_metadata': {
        const doc = parseMetadataDocument(env.args);
        await checkReplacedMetadata(doc); // triggers' env variables, remote schemas introspected (strict, as the rebuild)
        await this.freshCatalog();
        await this.apply([ev('metadata_replaced', { metadata: doc })], { mode: 'strict' }, 'all');
        return SUCCESS;
      }
      case 'drop_inconsistent_metadata': {
        await this.freshCatalog();
        const ids = this.cache.inconsistent.flatMap((o) => (o.id ? [o.id] : []));
        const drops: Event[] = [
          ...dropEvents(ids.map(idToObj).filter((o): o is ObjId => o !== null)),
          ...ids.map((id) => JSON.parse(id) as string[]).filter((a) => a[0] === 'action').map((a) => ev('action_dropped', { name: a[1], clear_data: false })),
        ];
        await this.apply(drops, { mode: 'strict' });
        return SUCCESS;
      }
    }
    const cmd = parseCommand(env.type, env.version, env.args);
    if (cmd) return this.command(cmd);
    const handler = this.ctx.handlers?.[env.type] ?? registeredHandler(env.type)?.handler;
    if (handler) {
      const r = await handler(env.args, {
        client: this.ctx.client,
        state: this.state(),
        role: this.ctx.role,
        requestId: this.ctx.requestId,
        version: env.version,
        session: this.ctx.session,
        stringifyNumeric: this.ctx.stringifyNumeric,
      });
      if (r.events?.length) await this.apply(r.events as Event[], { mode: 'none' });
      return r.response;
    }
    throw new EngineError('parse-failed', `unknown query type: ${env.type}`, { path: '$.type' });
  }

  private async bulk(raw: unknown, base: PathSegment[]): Promise<unknown[]> {
    if (!Array.isArray(raw)) {
      throw new EngineError('parse-failed', `parsing [RQLQuery] failed, expected Array, but encountered ${jsonKind(raw)}`, { path: formatPath([...base, 'args']) });
    }
    // Like the original, the whole bulk is parsed before anything runs; parse errors name the element as `$[i]`.
    raw.forEach((item, i) => preParse(item, [i]));
    this.checkAccessModes(raw, base);
    const out: unknown[] = [];
    for (let i = 0; i < raw.length; i++) out.push(await this.query(raw[i], [...base, 'args', i]));
    return out;
  }

  /** Read-write and read-only sub-operations cannot share the bulk's transaction. */
  private checkAccessModes(items: unknown[], base: PathSegment[]): void {
    let expected: 'READ WRITE' | 'READ ONLY' | null = null;
    items.forEach((item, i) => {
      const mode = this.accessMode(item);
      if (mode === null) return;
      if (expected === null) expected = mode;
      else if (expected !== mode) {
        throw new EngineError(
          'bad-request',
          `incompatible access mode requirements in bulk query, expected access mode: ${expected} but ${formatPath([...base, 'args', i])} forces ${mode}`,
          { path: '$' },
        );
      }
    });
  }

  private accessMode(item: unknown): 'READ WRITE' | 'READ ONLY' | null {
    if (typeof item !== 'object' || item === null) return null;
    const { type, args } = item as { type?: unknown; args?: unknown };
    if (type === 'run_sql') return (args as { read_only?: unknown } | null)?.read_only === true ? 'READ ONLY' : 'READ WRITE';
    if (typeof type === 'string' && (READ_ONLY_TYPES.has(type) || this.ctx.readOnlyHandlers?.has(type) || registeredHandler(type)?.access === 'either' || type === 'select' || type === 'count')) return null;
    if (type === 'bulk' && Array.isArray(args)) {
      const modes = args.map((a) => this.accessMode(a)).filter((m) => m !== null);
      return modes[0] ?? null;
    }
    return 'READ WRITE';
  }

  private async command(cmd: Command): Promise<unknown> {
    await this.freshCatalog();
    const events = decide(cmd, { metadata: this.metadata, catalog: this.catalog });
    await checkFamilyCommand(cmd); // a trigger's env variables, a remote schema's introspection (after decide's checks)
    let check: Check = { mode: 'none' };
    let enums: 'all' | string[] = [];
    switch (cmd.op) {
      case 'track_table':
      case 'set_table_is_enum':
      case 'set_table_custom_fields':
        check = { mode: 'object', id: JSON.stringify(['table', cmd.table.schema, cmd.table.name]) };
        enums = [`${cmd.table.schema}.${cmd.table.name}`];
        break;
      case 'create_relationship':
        check = { mode: 'object', id: JSON.stringify(['relationship', cmd.table.schema, cmd.table.name, cmd.relationship.name]) };
        break;
      case 'add_computed_field':
        check = { mode: 'object', id: JSON.stringify(['computed_field', cmd.table.schema, cmd.table.name, cmd.computed_field.name]) };
        break;
      case 'track_function':
        check = { mode: 'object', id: JSON.stringify(['function', cmd.function.schema, cmd.function.name]) };
        break;
      case 'set_custom_types':
        check = { mode: 'object', id: JSON.stringify(['custom_types']) };
        break;
      case 'create_action':
      case 'update_action': {
        const name = cmd.op === 'create_action' ? cmd.action.name : cmd.name;
        check = { mode: 'object', id: JSON.stringify(['action', name]) };
        break;
      }
      case 'create_permission':
        check = { mode: 'object', id: JSON.stringify(['permission', cmd.table.schema, cmd.table.name, cmd.role, cmd.kind]) };
        break;
      case 'reload_metadata':
        this.catalog = await introspectCatalog(this.ctx.client);
        enums = 'all';
        break;
    }
    await this.apply(events, check, enums);
    return SUCCESS;
  }

  private async runSql(raw: unknown): Promise<RunSqlResult> {
    const a = decode(A.run_sql, raw);
    const run = {
      sql: a.sql,
      cascade: a.cascade ?? false,
      check_metadata_consistency: a.check_metadata_consistency ?? null,
      read_only: a.read_only ?? false,
    };
    if (run.read_only) return runSql(this.ctx.client, run.sql, true);
    const check = shouldCheckMetadata(run);
    if (check) await this.freshCatalog();
    const before = this.catalog;
    const result = await runSql(this.ctx.client, run.sql, false);
    if (!check) {
      // The original neither re-reads the catalog nor rebuilds here; later writes in this request will.
      this.events.push(ev('sql_ran', run));
      this.catalogFresh = false;
      return result;
    }
    this.catalog = await introspectCatalog(this.ctx.client);
    this.catalogFresh = true;
    const events = decideSqlRan(run, before, { metadata: this.metadata, catalog: this.catalog });
    await this.apply(events, { mode: 'sql' }, 'all');
    return result;
  }

  // Note [Catalog freshness]
  // Decisions need the catalog as this transaction sees it (a bulk may have created the table it tracks), so
  // the first operation that decides re-reads it, and run_sql marks it stale. Enum rows are different: the
  // original reads them when it builds metadata, not on every data change, so they are carried over and only
  // re-read for the enum tables an operation touches, or for all on reload/replace/checked run_sql.
  /** Re-reads the catalog once per request (and after SQL), keeping the enum rows read before. */
  private async freshCatalog(): Promise<void> {
    if (this.catalogFresh) return;
    const previous = this.catalog;
    this.catalog = await withEnumValues(this.ctx.client, this.metadata, await introspectCatalog(this.ctx.client), [], previous);
    this.catalogFresh = true;
  }

  /** Folds events, rebuilds the cache and enforces the consistency rule of the operation. */
  private async apply(events: Event[] | NewEvent[], check: Check, enums: 'all' | string[] = []): Promise<void> {
    const before = this.cache;
    let metadata = this.metadata;
    for (const e of events) metadata = evolve(metadata, e);
    const catalog = await withEnumValues(this.ctx.client, metadata, this.catalog, enums, this.catalog);
    const cache = buildSchemaCache(metadata, catalog);
    enforce(check, before, cache);
    this.metadata = metadata;
    this.catalog = catalog;
    this.cache = cache;
    this.events.push(...events);
  }
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
  if (fresh.length) {
    const sql = check.mode === 'sql';
    throw new EngineError('unexpected', sql ? 'cannot continue due to newly found inconsistent metadata' : 'cannot continue due to new inconsistent metadata', {
      path: '$.args',
      status: sql ? 500 : 400,
      internal: publicInconsistencies(fresh),
    });
  }
}

function idToObj(id: string): ObjId | null {
  const a = JSON.parse(id) as string[];
  const table = { schema: a[1], name: a[2] };
  switch (a[0]) {
    case 'table': return { kind: 'table', table };
    case 'relationship': return { kind: 'relationship', table, name: a[3] };
    case 'computed_field': return { kind: 'computed_field', table, name: a[3] };
    case 'permission': return { kind: 'permission', table, role: a[3], perm: a[4] as 'select' };
    case 'function': return { kind: 'function', fn: table };
    default: return null;
  }
}
export type MetadataQueryContext = MetadataRequestContext;
