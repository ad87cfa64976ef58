// The shape of an entry of the operation table (src/metadata/operations.ts) and the builders the families'
// entries are written with (src/metadata/operations/<family>.ts). A metadata command's entry says, in one place,
// its argument schema per version (zod; the schema's output is the command), its decide function, the I/O it
// needs, its consistency rule, its enum tables and its catalog refresh; the compiler asks for every field.
import type pg from 'pg';
import type { z } from 'zod';
import { qualifiedKey, type QualifiedName } from '../../core/names.js';
import type { EngineState } from '../../cache/state.js';
import { decode } from '../../../events/argument-shapes.js';
import type { DecideContext } from '../../../events/decide/context.js';
import type { Event } from '../../../events/types.js';
import type { Env } from '../../core/env.js';
import type { RemoteIntrospections } from '../../cache/types.js';
import type { IoInputs } from '../io-checks.js';
import type { Dml } from '../dml/context.js';

/** A bulk's transaction access mode: 'write' (READ WRITE), 'read' (READ ONLY), 'either' (fits any bulk). */
export type Access = 'write' | 'read' | 'either';

/** Argument parsers by version; a version without one is `unknown query type: T (version N)`. */
export type Versions<A> = { 1?: (raw: unknown) => A; 2?: (raw: unknown) => A };

/**
 * Which new inconsistency fails the request (Note [Consistency checks] in execute.ts): none, the object the
 * operation stored (by its schema-cache id; others newly inconsistent still fail), any at all, or run_sql's rule.
 */
export type Check = { mode: 'none' } | { mode: 'object'; id: string } | { mode: 'strict' } | { mode: 'sql' };

/** A parsed metadata command, bound to everything the write path needs to run it. */
export interface Decision {
  /** 'fresh': the catalog as this transaction sees it; 'reload': re-introspected after deciding (all enum rows too). */
  catalog: 'fresh' | 'reload';
  decide(ctx: DecideContext): Event[];
  /**
   * I/O the decided objects need (a trigger's env variables, a remote schema's introspection); throws to refuse.
   * The remote schemas' introspections after it: the state the operation builds keeps them.
   */
  io(env: Env, inputs: IoInputs): Promise<RemoteIntrospections>;
  check: Check;
  /** Enum tables whose rows are (re-)read after the events. */
  enums: 'all' | string[];
}

/** What a read-only operation sees: the request's state and its transaction (the history reads the log). */
export interface ReadContext {
  state: EngineState;
  client: pg.ClientBase;
}

/** What an event-log operation runs with (invoke_event_trigger, redeliver_event act on event_log, not metadata). */
export interface EventLogContext extends ReadContext {
  role: string;
  session?: { role: string; variables: Record<string, string> };
}

export type Operation =
  | { kind: 'command'; caller: 'admin'; access: 'write'; versions: Versions<Decision> }
  | { kind: 'event_log'; caller: 'admin'; access: 'write'; versions: Versions<unknown>; run: (ctx: EventLogContext, args: unknown) => Promise<unknown> }
  | { kind: 'read'; caller: 'admin'; access: 'either'; versions: Versions<unknown>; answer: (ctx: ReadContext, args: unknown) => unknown }
  | { kind: 'data'; caller: 'any'; access: 'either' | 'write'; versions: Versions<unknown>; run: (dml: Dml, args: unknown) => Promise<unknown> }
  | { kind: 'run_sql'; caller: 'admin'; access: (raw: unknown) => Access; versions: Versions<unknown> }
  | { kind: 'migration'; caller: 'admin'; access: 'write'; versions: Versions<unknown> }
  | { kind: 'bulk'; versions: Versions<unknown> };

/** A family's entries, spread into the one table. */
export type Operations = Readonly<Record<string, Operation>>;

// ---------------------------------------------------------------------------------------------------------------
// Metadata commands

/** One command of a family's union (the output type of an operation's argument schema). */
export type Cmd<U, Op> = Extract<U, { op: Op }>;

/**
 * An operation's arguments for one version: a zod schema whose output is the command (defaults filled in, stored
 * shapes built, by `.transform`). It is run by `decode`, so its failures are the original's parse errors.
 */
export type Args<C> = z.ZodType<C, z.ZodTypeDef, unknown>;

interface CommandSpec<C> {
  versions: { 1?: Args<C>; 2?: Args<C> };
  // NoInfer: the command type comes from the schemas; decide may take its whole family's union.
  decide: (cmd: NoInfer<C>, ctx: DecideContext) => Event[];
  /** Returns the remote schemas' introspections when it made some (void: as they were). */
  io?: (cmd: NoInfer<C>, env: Env, inputs: IoInputs) => Promise<RemoteIntrospections | void>;
  check?: (cmd: NoInfer<C>) => Check;
  enums?: (cmd: NoInfer<C>) => 'all' | string[];
  catalog?: 'fresh' | 'reload';
}

export const NO_CHECK: Check = { mode: 'none' };
/** The check of an operation that stores one object: that object must be consistent. */
export const object = (id: string): Check => ({ mode: 'object', id });
const enumOf = (t: QualifiedName): string[] => [qualifiedKey(t)];

/** A metadata command: each version's decoded command is bound to the spec's functions (typed per command). */
export function command<C>(spec: CommandSpec<C>): Operation {
  const bind = (schema: Args<C>) => (raw: unknown): Decision => {
    const cmd = decode(schema, raw);
    return {
      catalog: spec.catalog ?? 'fresh',
      decide: (ctx) => spec.decide(cmd, ctx),
      io: async (env, inputs) => (await spec.io?.(cmd, env, inputs)) ?? inputs.remoteSchemas,
      check: spec.check?.(cmd) ?? NO_CHECK,
      enums: spec.enums?.(cmd) ?? [],
    };
  };
  const versions: Versions<Decision> = {};
  if (spec.versions[1]) versions[1] = bind(spec.versions[1]);
  if (spec.versions[2]) versions[2] = bind(spec.versions[2]);
  return { kind: 'command', caller: 'admin', access: 'write', versions };
}

/** check and enums of a command that stores a table-level object: that object (by its id), the table's enum rows. */
export const tableObject = (id: (t: QualifiedName) => string) => ({
  check: (c: { table: QualifiedName }) => object(id(c.table)),
  enums: (c: { table: QualifiedName }) => enumOf(c.table),
});

// ---------------------------------------------------------------------------------------------------------------
// Other kinds

export const ignoreArgs = (raw: unknown): unknown => raw;
/** A read-only operation; its args (if any) are parsed when it runs. */
export const read = (answer: (ctx: ReadContext, args: unknown) => unknown): Operation =>
  ({ kind: 'read', caller: 'admin', access: 'either', versions: { 1: ignoreArgs }, answer });
/** v1 DML: any role may call it; its args are parsed against the role's tables when it runs. */
export const data = (access: 'either' | 'write', run: (dml: Dml, args: unknown) => Promise<unknown>): Operation =>
  ({ kind: 'data', caller: 'any', access, versions: { 1: ignoreArgs }, run });
