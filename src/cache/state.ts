// The projected state every request reads: swapped atomically as a whole when the log advances.
import type { PgCatalog } from '../catalog/types.js';
import type { Metadata } from '../../projections/metadata.js';
import type { RemoteIntrospections, SchemaCache } from './types.js';
import { buildSchemaCache, type CacheCheck } from './build.js';

export interface EngineState {
  /** Seq of the last event folded into this state (0 = empty log). */
  readonly seq: number;
  readonly metadata: Metadata;
  readonly catalog: PgCatalog;
  readonly remoteSchemas: RemoteIntrospections;
  readonly cache: SchemaCache;
}

/** The state for a metadata at a seq, resolved against a catalog and the remote schemas (with the features' cache checks). */
export function buildState(
  seq: number, metadata: Metadata, catalog: PgCatalog, remoteSchemas: RemoteIntrospections, checks: readonly CacheCheck[], previous?: EngineState,
): EngineState {
  return { seq, metadata, catalog, remoteSchemas, cache: buildSchemaCache(metadata, catalog, remoteSchemas, checks, { previous: previous?.cache }) };
}
