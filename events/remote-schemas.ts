// Remote schemas as metadata stores them, and the shape add_remote_schema's args (src/metadata/operations/
// remote-schemas.ts), replace_metadata and the export read them with.
import { z } from 'zod';
import { comment, headerConf, nonEmptyText, type HeaderConf } from './argument-shapes.js';

const remoteDef = z.object({
  url: z.string().nullable().optional(),
  url_from_env: z.string().nullable().optional(),
  headers: z.array(headerConf).nullable().optional(),
  forward_client_headers: z.boolean().nullable().optional(),
  timeout_seconds: z.number().int().nullable().optional(),
});

const addArgs = z.object({ name: nonEmptyText, definition: remoteDef, comment });

/** The stored (and exported) definition: keys in the export's order, absent ones left out. */
export interface RemoteSchemaDef {
  url?: string;
  url_from_env?: string;
  timeout_seconds?: number;
  headers?: HeaderConf[];
  forward_client_headers?: true;
}

export interface RemoteSchemaMeta {
  name: string;
  definition: RemoteSchemaDef;
  comment?: string;
}

/** The stored definition: keys in the export's order, absent/default ones left out. */
function storedDef(d: z.output<typeof remoteDef>): RemoteSchemaDef {
  return {
    ...(d.url != null ? { url: d.url } : {}),
    ...(d.url_from_env != null ? { url_from_env: d.url_from_env } : {}),
    ...(d.timeout_seconds != null ? { timeout_seconds: d.timeout_seconds } : {}),
    ...(d.headers != null && d.headers.length ? { headers: d.headers } : {}),
    ...(d.forward_client_headers === true ? { forward_client_headers: true as const } : {}),
  };
}

/** A remote schema as add_remote_schema's args and replace_metadata read it. */
export const storedRemoteSchema = addArgs.transform(
  (a): RemoteSchemaMeta => ({ name: a.name, definition: storedDef(a.definition), ...(a.comment != null ? { comment: a.comment } : {}) }),
);
