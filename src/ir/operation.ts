// A whole operation as IR: its root fields (the database's selections and mutations, and the fields of features
// the executor runs apart: actions) and whether its compiled SQL can be reused for any variable values.
import type { AggregateIR, ConnectionIR, SelectIR } from './types.js';
import type { MutationIR } from './mutation.js';
import type { ActionRootIR } from './action.js';

export type RootFieldIR =
  | { kind: 'typename'; name: string }
  /** Introspection (__schema, __type) answered in Node by graphql-js: the JSON text to splice in. */
  | { kind: 'raw'; json: string }
  | { kind: 'select'; select: SelectIR }
  /** `_by_pk`: the single row or null. */
  | { kind: 'select_one'; select: SelectIR }
  | { kind: 'aggregate'; aggregate: AggregateIR }
  /** insert / update / delete (src/ir/mutation.ts). */
  | { kind: 'mutation'; mutation: MutationIR }
  /** Relay `<t>_connection` / `<fn>_connection`. */
  | { kind: 'connection'; connection: ConnectionIR }
  /** Actions (src/ir/action.ts): run by src/actions/execute.ts, not compiled with the other root fields. */
  | { kind: 'action_root'; action: ActionRootIR };

export interface OperationIR {
  operation: 'query' | 'mutation' | 'subscription';
  fields: Array<[string, RootFieldIR]>;
  /**
   * Note [Reusable plans]: true when GraphQL variables appear only where a ValueIR can carry them, so the compiled
   * SQL is valid for any variable values; false when a variable shaped the statement (e.g. a whole `where` or
   * `order_by` passed as a variable): such a plan is cached per the variables' shape instead (Note [Shape-keyed
   * plans] in src/graphql/request/input.ts).
   */
  reusable: boolean;
}
