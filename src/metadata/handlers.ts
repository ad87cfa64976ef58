// A registry of /v1/query operations implemented outside the metadata write side (v1 DML such as select, insert
// and count; event-trigger ops; ...), so that `bulk` and /v1/query dispatch to them without importing them here.
import type pg from 'pg';
import type { EngineState } from '../cache/state.js';
import type { NewEvent } from '../../events/types.js';

export interface QueryHandlerContext {
  client: pg.ClientBase;
  state: EngineState;
  role: string;
  requestId: string;
  version: 1 | 2;
  /** The caller's session (role and x-engine-* variables), when the request has one (v1 DML runs as that role). */
  session?: { role: string; variables: Record<string, string> };
  /** The server's stringify-numeric-types setting (v1 DML select output). */
  stringifyNumeric?: boolean;
}

export type QueryHandler = (args: unknown, ctx: QueryHandlerContext) => Promise<{ response: unknown; events?: NewEvent[] }>;

export interface RegisteredHandler {
  handler: QueryHandler;
  /** 'either': runs in read-only or read-write bulks (select, count); 'write' needs READ WRITE. */
  access: 'either' | 'write';
}

const registry = new Map<string, RegisteredHandler>();

export function registerQueryHandler(type: string, handler: QueryHandler, access: 'either' | 'write' = 'write'): void {
  registry.set(type, { handler, access });
}

export const registeredHandler = (type: string): RegisteredHandler | undefined => registry.get(type);
