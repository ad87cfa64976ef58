// Registers the v1 DML operations of /v1/query (select, count, insert, update, delete) with the metadata API's
// operation registry. They run as the request's role, append no events, and build their JSON in Postgres.
import { registerQueryHandler, type QueryHandler, type QueryHandlerContext } from '../handlers.js';
import { Dml } from './context.js';
import { runCount, runSelect } from './select.js';
import { runDelete, runInsert, runUpdate } from './mutation.js';

/** The operations any role may call on /v1/query (everything else is admin only). */
export const DML_TYPES: ReadonlySet<string> = new Set(['select', 'count', 'insert', 'update', 'delete']);

const handler = (run: (d: Dml, args: unknown) => Promise<unknown>) => async (args: unknown, ctx: QueryHandlerContext) => ({
  response: await run(new Dml(ctx), args),
});

/** The handlers by operation type. */
export const DML_HANDLERS: Record<string, QueryHandler> = {
  select: handler(runSelect),
  count: handler(runCount),
  insert: handler(runInsert),
  update: handler(runUpdate),
  delete: handler(runDelete),
};

for (const [type, h] of Object.entries(DML_HANDLERS)) registerQueryHandler(type, h, type === 'select' || type === 'count' ? 'either' : 'write');

/** Whether a /v1/query body holds only DML operations (possibly in bulks): those a non-admin role may run. */
export function isDmlOnly(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { type, args } = body as { type?: unknown; args?: unknown };
  if (type === 'bulk') return Array.isArray(args) && args.every(isDmlOnly);
  return typeof type === 'string' && DML_TYPES.has(type);
}
