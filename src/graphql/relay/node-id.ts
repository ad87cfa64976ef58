// Relay global ids: base64 of the JSON `[1, "<schema>", "<table>", <primary key values>...]` (version 1).
// Decoding reports what the original (aeson) reports for a bad id, after "the node id is invalid: ".
import { ve } from '../request/input.js';
import { showScientific } from '../schema/scalars.js';
import { jsonKind } from '../../core/json-kind.js';

export interface NodeIdV1 {
  schema: string;
  name: string;
  values: unknown[];
}

const invalid = (message: string, path: string) => ve(`the node id is invalid: ${message}`, path);

const JSON_START = /^[[{"tfn\-0-9]/;

/** Lenient base64 (invalid characters skipped), then JSON; throws validation-failed at `path` (the id argument). */
export function decodeNodeId(id: string, path: string): NodeIdV1 {
  const bytes = Buffer.from(id, 'base64');
  let v: unknown;
  try {
    v = JSON.parse(bytes.toString('utf8'));
  } catch {
    const text = bytes.toString('latin1');
    const rest = text.replace(/^[ \t\r\n]+/, '');
    if (rest === '') throw invalid('Error in $: not enough input', path);
    if (!JSON_START.test(rest)) throw invalid(`Error in $: Failed reading: not a valid json value at '${rest}'`, path);
    throw invalid('Error in $: Failed reading: satisfy', path);
  }
  if (!Array.isArray(v)) throw invalid(`Error in $: parsing [] failed, expected Array, but encountered ${jsonKind(v)}`, path);
  if (v.length === 0) throw invalid('Error in $: unexpected GUID format, found empty list', path);
  const [version, ...rest] = v as unknown[];
  if (typeof version !== 'number') throw invalid('Error in $: unexpected GUID format, needs to start with a version number', path);
  if (version !== 1) throw invalid(`Error in $: unsupported GUID version: ${showScientific(String(version))}`, path);
  if (rest.length < 3) {
    throw invalid('Error in $: GUID version 1: expecting schema name, table name and at least one column value', path);
  }
  const [schema, name, ...values] = rest;
  for (const s of [schema, name]) {
    if (typeof s !== 'string') throw invalid(`Error in $: parsing Text failed, expected String, but encountered ${jsonKind(s)}`, path);
  }
  return { schema: schema as string, name: name as string, values };
}

/** Decodes a cursor (base64 JSON); undefined when it is not one. */
export function decodeCursor(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
}
