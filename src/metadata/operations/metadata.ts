// The whole metadata: clear, reload (optionally the remote schemas too), replace, drop the inconsistent objects.
import { z } from 'zod';
import { decideMetadata, type MetadataCommand } from '../../../events/decide/metadata.js';
import { parseMetadataDocument } from '../../../projections/export.js';
import { checkReplacedMetadata, reloadRemoteSchemas } from '../io-checks.js';
import { command, type Check, type Cmd, type Operations } from './entry.js';

const STRICT: Check = { mode: 'strict' };

export const METADATA_OPERATIONS: Operations = {
  clear_metadata: command({
    versions: { 1: z.unknown().transform((): Cmd<MetadataCommand, 'clear_metadata'> => ({ op: 'clear_metadata' })) },
    decide: decideMetadata,
  }),
  reload_metadata: command({
    versions: {
      1: z.unknown().transform((a): Cmd<MetadataCommand, 'reload_metadata'> => ({
        op: 'reload_metadata',
        reload_remote_schemas: typeof a === 'object' && a !== null && 'reload_remote_schemas' in a && a.reload_remote_schemas === true,
      })),
    },
    decide: decideMetadata,
    catalog: 'reload',
    enums: () => 'all',
    io: async (c, env, inputs) => (c.reload_remote_schemas ? reloadRemoteSchemas(env, inputs) : undefined),
  }),
  replace_metadata: command({
    // The args are a whole export document (v1 or v2); its parser reports its own errors (thrown through decode).
    versions: { 1: z.unknown().transform((doc): Cmd<MetadataCommand, 'replace_metadata'> => ({ op: 'replace_metadata', metadata: parseMetadataDocument(doc) })) },
    decide: decideMetadata,
    io: (c, env) => checkReplacedMetadata(c.metadata, env),
    check: () => STRICT,
    enums: () => 'all',
  }),
  drop_inconsistent_metadata: command({
    versions: { 1: z.unknown().transform((): Cmd<MetadataCommand, 'drop_inconsistent_metadata'> => ({ op: 'drop_inconsistent_metadata' })) },
    decide: decideMetadata,
    check: () => STRICT,
  }),
};
