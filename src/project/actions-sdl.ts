// actions.graphql: the actions' signatures and the custom types as GraphQL SDL, printed the way the original CLI's
// cli-ext prints them (v1.3: `type Mutation { name (args): Output }` per action, `field : Type` in types, enums,
// input objects, objects, scalars in that order, `""" description """` before what it describes) and read back
// with graphql-js (which also accepts `extend type Mutation`, as later CLIs write).
import { Kind, parse, print, type FieldDefinitionNode, type InputValueDefinitionNode, type StringValueNode } from 'graphql';

type Obj = Record<string, unknown>;

export interface SdlArgument {
  name: string;
  type: string;
  description?: string;
}

export interface SdlAction {
  name: string;
  type: 'query' | 'mutation';
  arguments: SdlArgument[];
  output_type: string;
  comment?: string;
}

export interface SdlField extends SdlArgument {
  arguments?: SdlArgument[];
}

export interface SdlTypes {
  enums: Array<{ name: string; description?: string; values: Array<{ value: string; description?: string }> }>;
  input_objects: Array<{ name: string; description?: string; fields: SdlField[] }>;
  objects: Array<{ name: string; description?: string; fields: SdlField[] }>;
  scalars: Array<{ name: string; description?: string }>;
}

export class SdlError extends Error {}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const desc = (d: unknown): string => (str(d) ? `""" ${String(d).replace(/"""/g, '\\"""')} """ ` : '');

function argumentsSdl(args: unknown): string {
  const items = list(args);
  if (items.length === 0) return '';
  return `(\n${items.map((a) => `    ${desc(a.description)}${String(a.name)}: ${String(a.type)}`).join('\n')}\n  )`;
}

const fieldsSdl = (fields: unknown): string =>
  list(fields).map((f) => `  ${desc(f.description)}${String(f.name)} ${argumentsSdl(f.arguments)}: ${String(f.type)}`).join('\n');

const block = (keyword: string, t: Obj, body: string): string => `${desc(t.description)}${keyword} ${String(t.name)} {\n${body}\n}\n\n`;

/** The SDL of an export's actions and custom types ('' when there are none). */
export function printActionsSdl(actions: unknown, customTypes: unknown): string {
  const ct = (customTypes ?? {}) as Obj;
  const actionList = list(actions);
  const types =
    list(ct.enums).map((t) => block('enum', t, list(t.values).map((v) => `  ${desc(v.description)}${String(v.value)}`).join('\n'))).join('') +
    list(ct.input_objects).map((t) => block('input', t, fieldsSdl(t.fields))).join('') +
    list(ct.objects).map((t) => block('type', t, fieldsSdl(t.fields))).join('') +
    list(ct.scalars).map((t) => `${desc(t.description)}scalar ${String(t.name)}\n\n`).join('');
  if (actionList.length === 0 && types === '') return '';
  const actionSdl = actionList
    .map((a) => {
      const d = (a.definition ?? {}) as Obj;
      const root = d.type === 'query' ? 'Query' : 'Mutation';
      const field = { name: a.name, arguments: d.arguments, type: d.output_type, description: a.comment };
      return block('type', { name: root }, fieldsSdl([field])) + '\n';
    })
    .join('');
  return `${actionSdl}\n\n${types}`;
}

const description = (node: { description?: StringValueNode }): { description?: string } => {
  const d = node.description?.value.trim();
  return d ? { description: d } : {};
};

const argument = (a: InputValueDefinitionNode): SdlArgument => ({ name: a.name.value, type: print(a.type), ...description(a) });

function field(f: FieldDefinitionNode | InputValueDefinitionNode): SdlField {
  const out: SdlField = { name: f.name.value, type: print(f.type), ...description(f) };
  if ('arguments' in f && f.arguments && f.arguments.length) out.arguments = f.arguments.map(argument);
  return out;
}

/** The actions and custom types an actions.graphql defines, in the order it defines them. */
export function parseActionsSdl(sdl: string): { actions: SdlAction[]; types: SdlTypes } {
  const types: SdlTypes = { enums: [], input_objects: [], objects: [], scalars: [] };
  const actions: SdlAction[] = [];
  if (sdl.trim() === '') return { actions, types };
  let doc;
  try {
    doc = parse(sdl, { noLocation: true });
  } catch (e) {
    throw new SdlError(`actions.graphql: ${(e as Error).message}`);
  }
  for (const def of doc.definitions) {
    const name = 'name' in def && def.name ? def.name.value : '';
    if ((def.kind === Kind.OBJECT_TYPE_DEFINITION || def.kind === Kind.OBJECT_TYPE_EXTENSION) && (name === 'Query' || name === 'Mutation')) {
      for (const f of def.fields ?? []) {
        const comment = f.description?.value.trim();
        actions.push({
          name: f.name.value,
          type: name === 'Query' ? 'query' : 'mutation',
          arguments: (f.arguments ?? []).map(argument),
          output_type: print(f.type),
          ...(comment ? { comment } : {}),
        });
      }
    } else if (def.kind === Kind.OBJECT_TYPE_DEFINITION) {
      types.objects.push({ name, ...description(def), fields: (def.fields ?? []).map(field) });
    } else if (def.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION) {
      types.input_objects.push({ name, ...description(def), fields: (def.fields ?? []).map(field) });
    } else if (def.kind === Kind.ENUM_TYPE_DEFINITION) {
      types.enums.push({ name, ...description(def), values: (def.values ?? []).map((v) => ({ value: v.name.value, ...description(v) })) });
    } else if (def.kind === Kind.SCALAR_TYPE_DEFINITION) {
      types.scalars.push({ name, ...description(def) });
    } else {
      throw new SdlError(`actions.graphql: ${def.kind}${name ? ` ${name}` : ''} is not supported (actions and custom types only)`);
    }
  }
  return { actions, types };
}
