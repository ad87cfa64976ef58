// The original CLI's metadata folder (config v2), file by file, to and from an export_metadata document: one YAML
// file per kind written as yaml.v2 writes it (keys in the export's order), the actions split between
// actions.graphql (signatures and custom types, as SDL) and actions.yaml (what SDL cannot say: kind, handler,
// headers, permissions, type descriptions and relationships). Pure: folder.ts reads and writes the files.
import { exportMetadata, parseMetadataDocument } from '../../projections/export.js';
import { parseActionsSdl, printActionsSdl, type SdlAction, type SdlTypes } from './actions-sdl.js';
import { readYaml, toYamlV2 } from './yaml-v2.js';

type Obj = Record<string, unknown>;

/** The files of a metadata folder: name, and the export key it holds (actions.* hold actions and custom_types). */
export const LIST_FILES = [
  ['tables.yaml', 'tables'],
  ['functions.yaml', 'functions'],
  ['query_collections.yaml', 'query_collections'],
  ['allow_list.yaml', 'allowlist'],
  ['remote_schemas.yaml', 'remote_schemas'],
  ['cron_triggers.yaml', 'cron_triggers'],
] as const;
export const METADATA_FILES = ['version.yaml', ...LIST_FILES.map(([f]) => f), 'actions.yaml', 'actions.graphql'] as const;
export type MetadataFile = (typeof METADATA_FILES)[number];

/** Where an action's handler points when actions.graphql defines it and actions.yaml does not (config.yaml `actions`). */
export interface ActionDefaults {
  kind: string;
  handler_webhook_baseurl: string;
}
export const DEFAULT_ACTIONS: ActionDefaults = { kind: 'synchronous', handler_webhook_baseurl: 'http://localhost:3000' };

export class FolderError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
  }
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const sortedKeys = (o: Obj): Obj => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));

// Note [actions.yaml]
// The original writes actions.yaml from Go structs (field order: name, definition{kind, type, handler, arguments,
// output_type, forward_client_headers, headers}, permissions; custom types {name, description, fields, values,
// relationships}) after clearing what actions.graphql holds (type, arguments, output_type, fields). `kind` is
// always written (`""` for a query action). Enum values stay, and pass through an untyped Go map, so their keys
// come out sorted. `timeout` (which the v1.3 CLI dropped) is kept after `headers` so nothing is lost.

function yamlAction(a: Obj): Obj {
  const d = isObj(a.definition) ? a.definition : {};
  const def: Obj = { kind: typeof d.kind === 'string' ? d.kind : '', handler: d.handler };
  if (d.forward_client_headers === true) def.forward_client_headers = true;
  if (list(d.headers).length) def.headers = d.headers;
  if (d.timeout !== undefined) def.timeout = d.timeout;
  const out: Obj = { name: a.name, definition: def };
  if (list(a.permissions).length) out.permissions = a.permissions;
  return out;
}

function yamlType(t: Obj): Obj {
  const out: Obj = { name: t.name };
  if (t.description != null) out.description = t.description;
  if (list(t.values).length) out.values = list(t.values).map(sortedKeys);
  if (list(t.relationships).length) out.relationships = t.relationships;
  return out;
}

/** The folder's files for an export document (every file, empty kinds as `[]`). */
export function filesFromExport(doc: Obj): Map<MetadataFile, string> {
  const files = new Map<MetadataFile, string>();
  files.set('version.yaml', toYamlV2({ version: doc.version ?? 2 }));
  for (const [file, key] of LIST_FILES) files.set(file, toYamlV2(list(doc[key])));
  const ct = isObj(doc.custom_types) ? doc.custom_types : {};
  files.set('actions.yaml', toYamlV2({
    actions: list(doc.actions).map(yamlAction),
    custom_types: Object.fromEntries(['enums', 'input_objects', 'objects', 'scalars'].map((k) => [k, list(ct[k]).map(yamlType)])),
  }));
  files.set('actions.graphql', printActionsSdl(doc.actions, ct));
  return files;
}

function readFile(read: (file: MetadataFile) => string | null, file: MetadataFile): unknown {
  const text = read(file);
  if (text === null) return undefined;
  try {
    return readYaml(text);
  } catch (e) {
    throw new FolderError(file, (e as Error).message.split('\n')[0]);
  }
}

function listFile(read: (file: MetadataFile) => string | null, file: MetadataFile): Obj[] {
  const v = readFile(read, file);
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new FolderError(file, 'expected a list');
  return v as Obj[];
}

/**
 * The export document a folder describes (what `metadata apply` sends as replace_metadata). version.yaml must
 * exist (it marks a metadata folder); a missing file of another kind means none of that kind.
 */
export function exportFromFiles(read: (file: MetadataFile) => string | null, defaults: ActionDefaults = DEFAULT_ACTIONS): Obj {
  const version = readFile(read, 'version.yaml');
  if (version === undefined) throw new FolderError('version.yaml', 'not found (a metadata folder starts with version.yaml)');
  if (!isObj(version)) throw new FolderError('version.yaml', 'expected `version: 2`');
  const doc: Obj = { version: version.version ?? 2, tables: listFile(read, 'tables.yaml') };
  for (const [file, key] of LIST_FILES) {
    if (key === 'tables') continue;
    const items = listFile(read, file);
    if (items.length) doc[key] = items;
  }
  Object.assign(doc, buildActions(read, defaults));
  return doc;
}

/**
 * The document as the engine will export it once applied (defaults filled in or left out, keys ordered), so a
 * folder written by hand compares equal to the engine's metadata when it says the same; null when the engine
 * would refuse it (the apply then reports why).
 */
export function asExported(doc: Obj): Obj | null {
  try {
    return exportMetadata(parseMetadataDocument(doc));
  } catch {
    return null;
  }
}

/** actions and custom_types from actions.graphql, completed by actions.yaml (as the original CLI's Build). */
function buildActions(read: (file: MetadataFile) => string | null, defaults: ActionDefaults): Obj {
  let sdl: { actions: SdlAction[]; types: SdlTypes };
  try {
    sdl = parseActionsSdl(read('actions.graphql') ?? '');
  } catch (e) {
    throw new FolderError('actions.graphql', (e as Error).message.replace(/^actions\.graphql: /, ''));
  }
  const yaml = readFile(read, 'actions.yaml');
  const y = isObj(yaml) ? yaml : {};
  const yamlActions = new Map(list(y.actions).map((a) => [String(a.name), a]));
  for (const name of yamlActions.keys()) {
    if (!sdl.actions.some((a) => a.name === name)) throw new FolderError('actions.yaml', `action ${name} is not present in actions.graphql`);
  }
  const actions = sdl.actions.map((s) => {
    const ya = yamlActions.get(s.name);
    const yd = isObj(ya?.definition) ? ya.definition : {};
    const def: Obj = { handler: typeof yd.handler === 'string' && yd.handler !== '' ? yd.handler : `${defaults.handler_webhook_baseurl}/${s.name}` };
    def.output_type = s.output_type;
    if (yd.forward_client_headers === true) def.forward_client_headers = true;
    if (list(yd.headers).length) def.headers = yd.headers;
    def.arguments = s.arguments;
    def.type = s.type;
    if (s.type === 'mutation') def.kind = typeof yd.kind === 'string' && yd.kind !== '' ? yd.kind : ya ? 'synchronous' : defaults.kind;
    if (yd.timeout !== undefined && yd.timeout !== null) def.timeout = yd.timeout;
    const out: Obj = { name: s.name, definition: def };
    if (s.comment !== undefined) out.comment = s.comment;
    if (list(ya?.permissions).length) out.permissions = ya!.permissions;
    return out;
  });
  const out: Obj = {};
  if (actions.length) out.actions = actions;
  const ct = customTypes(sdl.types, isObj(y.custom_types) ? y.custom_types : {});
  if (Object.keys(ct).length) out.custom_types = ct;
  return out;
}

/** SDL types with descriptions, relationships and enum value flags from actions.yaml (which wins, as the original). */
function customTypes(sdl: SdlTypes, yaml: Obj): Obj {
  const out: Obj = {};
  for (const kind of ['enums', 'input_objects', 'objects', 'scalars'] as const) {
    const fromYaml = new Map(list(yaml[kind]).map((t) => [String(t.name), t]));
    for (const name of fromYaml.keys()) {
      if (!sdl[kind].some((t) => t.name === name)) throw new FolderError('actions.yaml', `custom type ${name} is not present in actions.graphql`);
    }
    const types = (sdl[kind] as Obj[]).map((t) => {
      const yt = fromYaml.get(String(t.name));
      if (!yt) return t;
      const merged: Obj = { ...t, description: yt.description ?? undefined };
      if (list(yt.relationships).length) merged.relationships = yt.relationships;
      if (kind === 'enums') {
        const flags = new Map(list(yt.values).map((v) => [String(v.value), v.is_deprecated]));
        merged.values = list(t.values).map((v) => (flags.get(String(v.value)) != null ? { ...v, is_deprecated: flags.get(String(v.value)) } : v));
      }
      return JSON.parse(JSON.stringify(merged)) as Obj;
    });
    if (types.length) out[kind] = types;
  }
  return out;
}
