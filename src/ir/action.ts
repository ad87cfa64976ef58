// Actions in the IR (plain data): the handler call (input as a template over the request's variables), the
// output selection (custom-type fields, relationships to tables as SelectIR with the caller's permissions), and the
// async forms (enqueue a call; read a stored call by id).
import type { HeaderConf } from '../../events/argument-shapes.js';
import type { PgTypeRef, SelectIR } from './types.js';

/** The JSON of an argument value: literals as written, variables read from the request at execution time. */
export type InputTemplate =
  | { kind: 'json'; value: unknown }
  | { kind: 'variable'; name: string; path: Array<string | number> }
  | { kind: 'object'; fields: Array<[string, InputTemplate]> }
  | { kind: 'list'; items: InputTemplate[] };

export interface ActionCallIR {
  name: string;
  handler: string;
  headers: HeaderConf[];
  forwardClientHeaders: boolean;
  /** Seconds. */
  timeout: number;
  input: Array<[string, InputTemplate]>;
}

/** One field of the output object type, for response validation (the whole type, not just the selection). */
export interface OutputFieldSpec {
  name: string;
  nullable: boolean;
}

export type ActionOutputFieldIR =
  | { kind: 'typename'; name: string }
  /** A field of the handler's object, passed through as JSON. */
  | { kind: 'field'; name: string }
  /** A relationship to a table: rows whose `mapping` columns equal the object's fields. */
  | { kind: 'relationship'; array: boolean; mapping: Array<{ field: string; column: string; pgType: PgTypeRef }>; select: SelectIR };

export interface ActionOutputIR {
  typeName: string;
  list: boolean;
  spec: OutputFieldSpec[];
  fields: Array<[string, ActionOutputFieldIR]>;
}

export type ActionRootIR =
  /** Call the handler now; answer with its (validated) output. */
  | { kind: 'action'; call: ActionCallIR; output: ActionOutputIR }
  /** Store the call for the async worker; answer with the new id. */
  | { kind: 'action_enqueue'; call: ActionCallIR }
  /** `<action>(id:)`: the stored call, visible to the session that made it (admin: any). */
  | {
      kind: 'action_status';
      action: string;
      id: InputTemplate;
      admin: boolean;
      fields: Array<[string, { kind: 'typename'; name: string } | { kind: 'id' | 'created_at' | 'errors' } | { kind: 'output'; output: ActionOutputIR }]>;
    };
