// STUB (owned by the write-side helper, replace freely): runs one /v1/query body against the current state.
// Knows only export_metadata (empty) and a `bulk` of those, so the HTTP machinery can be exercised.
import type pg from 'pg';
import type { EngineState } from '../cache/state.js';
import { EngineError } from '../core/errors.js';
import type { NewEvent } from '../../events/log.js';

export interface MetadataQueryContext {
  client: pg.ClientBase;
  state: EngineState;
  role: string;
  requestId: string;
}

export async function runMetadataQuery(
  body: unknown,
  ctx: MetadataQueryContext,
): Promise<{ response: unknown; events: NewEvent[]; state: EngineState }> {
  const b = body as { type?: unknown; args?: unknown };
  if (b === null || typeof b !== 'object' || typeof b.type !== 'string') throw new EngineError('parse-failed', 'missing type');
  if (b.type === 'export_metadata') return { response: { version: 2, tables: [] }, events: [], state: ctx.state };
  throw new EngineError('not-supported', `unknown operation ${b.type}`);
}
