// What a failed engine operation says, in one line: the engine's message, and the Postgres error (or the
// inconsistent objects' reasons) it carries; and which metadata file an error path points into.
import { LIST_FILES } from './metadata-files.js';

export interface Failure {
  message: string;
  code?: string;
  path?: string;
  internal?: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `query execution failed: relation "x" does not exist`, or the reasons of the objects that made it fail. */
export function failureText(f: Failure): string {
  const internal = f.internal;
  if (isObj(internal) && isObj(internal.error) && typeof internal.error.message === 'string') {
    return `${f.message}: ${internal.error.message.replace(/\s*\n\s*/g, ' ')}`;
  }
  if (Array.isArray(internal)) {
    const reasons = internal.map((o) => (isObj(o) && typeof o.reason === 'string' ? o.reason : null)).filter((r) => r !== null);
    if (reasons.length) return `${f.message}: ${reasons.join('; ')}`;
  }
  return f.message;
}

/** The metadata file an error path (`$.args.tables[0]...` of a replace_metadata) points into, if any. */
export function fileOfPath(path: string | undefined): string | null {
  const key = /^\$\.args\.([a-z_]+)/.exec(path ?? '')?.[1];
  if (key === undefined) return null;
  if (key === 'actions' || key === 'custom_types') return 'actions.yaml / actions.graphql';
  if (key === 'version') return 'version.yaml';
  return LIST_FILES.find(([, k]) => k === key)?.[0] ?? null;
}
