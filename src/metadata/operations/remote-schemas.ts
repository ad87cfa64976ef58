// Remote schemas: add (its definition is introspected before the event is kept), remove, reload, introspect.
import { z } from 'zod';
import { nonEmptyText } from '../../../events/argument-shapes.js';
import { decideRemoteSchema, type RemoteSchemaCommand } from '../../../events/decide/remote-schemas.js';
import { storedRemoteSchema } from '../../../events/remote-schemas.js';
import { remoteSchemaId } from '../../remote/schema.js';
import { checkRemoteSchema, reloadRemoteSchema } from '../io-checks.js';
import { command, object, read, type Cmd, type Operations } from './entry.js';
import { introspectionFromSchema } from 'graphql';
import { decode } from '../../../events/argument-shapes.js';
import { EngineError } from '../../core/errors.js';
import { quote as q } from '../../core/names.js';
import { introspected } from '../../remote/introspections.js';

type AddRemoteSchema = Cmd<RemoteSchemaCommand, 'add_remote_schema'>;
type ByName = Cmd<RemoteSchemaCommand, 'remove_remote_schema' | 'reload_remote_schema'>;
const byName = (op: ByName['op']) => z.object({ name: nonEmptyText }).transform((a): ByName => ({ op, name: a.name }));

export const REMOTE_SCHEMA_OPERATIONS: Operations = {
  add_remote_schema: command({
    versions: { 1: storedRemoteSchema.transform((remote_schema): AddRemoteSchema => ({ op: 'add_remote_schema', remote_schema })) },
    decide: decideRemoteSchema,
    io: (c, env, inputs) => checkRemoteSchema(c.remote_schema, env, inputs),
    check: (c) => object(remoteSchemaId(c.remote_schema.name)),
  }),
  remove_remote_schema: command({ versions: { 1: byName('remove_remote_schema') }, decide: decideRemoteSchema }),
  // The introspection this instance keeps (the original's console reads it to build its editors).
  introspect_remote_schema: read(({ state }, raw) => {
    const { name } = decode(z.object({ name: nonEmptyText }), raw);
    const rs = state.metadata.remote_schemas.find((r) => r.name === name);
    const r = rs ? introspected(state.remoteSchemas, rs) : null;
    if (!r?.ok) throw new EngineError('not-exists', `remote schema: ${q(name)} not found`, { path: '$.args' });
    return { data: introspectionFromSchema(r.schema) };
  }),
  reload_remote_schema: command({
    versions: { 1: byName('reload_remote_schema') },
    decide: decideRemoteSchema,
    io: (c, env, inputs) => reloadRemoteSchema(c.name, env, inputs),
  }),
};
