// Runs /v1/query bodies through runMetadataQuery on a real database, one transaction per request, keeping the
// state and the appended events as the server would (without the log table).
import pg from 'pg';
import { EngineError } from '../../src/core/errors.js';
import { introspectCatalog } from '../../src/catalog/introspect.js';
import { buildState, type EngineState } from '../../src/cache/state.js';
import { NO_REMOTE_SCHEMAS } from '../../src/cache/types.js';
import { runMetadataQuery } from '../../src/metadata/execute.js';
import { responseText } from '../../src/core/json-text.js';
import { features } from '../../src/features.js';
import { emptyMetadata } from '../../projections/metadata.js';
import type { Event } from '../../events/types.js';
import { ensureCatalogSchema } from '../../events/log.js';

export interface Outcome {
  status: number;
  body: unknown;
}

export class Harness {
  state!: EngineState;
  readonly log: Event[] = [];
  /** Metadata after each committed request, by log length. */
  readonly snapshots = new Map<number, EngineState['metadata']>();

  constructor(readonly client: pg.Client) {}

  static async connect(url: string): Promise<Harness> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // engine_catalog holds the event-trigger tables that metadata writes keep in step (src/triggers/reconcile.ts).
    await ensureCatalogSchema(client);
    const h = new Harness(client);
    h.state = buildState(0, emptyMetadata(), await introspectCatalog(client), NO_REMOTE_SCHEMAS, features.cacheChecks);
    return h;
  }

  /** One request: 200 with the response, or the error's status and body (internal included). */
  async query(body: unknown): Promise<Outcome> {
    await this.client.query('BEGIN');
    try {
      const r = await runMetadataQuery(body, { client: this.client, state: this.state, cacheChecks: features.cacheChecks, role: 'admin', requestId: 'test' });
      await this.client.query('COMMIT');
      this.state = r.state;
      this.log.push(...r.events);
      this.snapshots.set(this.log.length, r.state.metadata);
      // As a client reads it: the JSON text the route answers (v1 DML answers are Postgres's text), parsed.
      return { status: 200, body: JSON.parse(responseText(r.response ?? null)) as unknown };
    } catch (e) {
      await this.client.query('ROLLBACK');
      if (!(e instanceof EngineError)) throw e;
      const body: Record<string, unknown> = { path: e.path, error: e.message, code: e.code };
      if (e.internal !== undefined) body.internal = e.internal;
      return { status: e.status, body };
    }
  }

  /** A request that must succeed. */
  async ok(body: unknown): Promise<unknown> {
    const r = await this.query(body);
    if (r.status !== 200) throw new Error(`expected success for ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
    return r.body;
  }

  sql(sql: string, extra: Record<string, unknown> = {}) {
    return this.query({ type: 'run_sql', args: { sql, ...extra } });
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}
