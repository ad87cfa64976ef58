// Other features (actions, remote schemas) add query_root fields through the SchemaExtensions they are given.
import test from 'ava';
import { GraphQLNonNull, GraphQLString } from 'graphql';
import type { SchemaExtensions } from '../../src/graphql/role-schema.js';
import { prepareOperation } from '../../src/graphql/prepare.js';
import { fieldArgs } from '../../src/graphql/request/collect.js';
import { toJson } from '../../src/graphql/request/input.js';
import type { EngineState } from '../../src/cache/state.js';
import { NO_REMOTE_SCHEMAS } from '../../src/cache/types.js';
import { emptyCatalog } from '../../src/catalog/types.js';
import { emptyMetadata } from '../../projections/metadata.js';

const extensions: SchemaExtensions = { queryFields: [(ctx) => [
  {
    name: 'hello',
    config: { type: new GraphQLNonNull(GraphQLString), args: { who: { type: GraphQLString } } },
    subscription: false,
    translate: (t, f) => ({ kind: 'raw', json: JSON.stringify(`hello ${String(toJson(fieldArgs(f, t.cc).get('who') ?? { kind: 'null' }))} as ${ctx.role}`) }),
  },
]], mutationFields: [], roleSchema: [] };

const state = (): EngineState => ({
  seq: 1,
  metadata: emptyMetadata(),
  catalog: emptyCatalog(),
  remoteSchemas: NO_REMOTE_SCHEMAS,
  cache: { tables: {}, functions: {}, roles: [], inconsistent: [] },
});

test('a contributed field is in query_root, validated like any other, and translated by its contributor', (t) => {
  const s = state();
  const p = prepareOperation(s, { role: 'user', variables: {} }, { query: '{ hello(who: "you") }' }, { extensions });
  t.deepEqual(p.ir.fields, [['hello', { kind: 'raw', json: '"hello you as user"' }]]);
  const err = t.throws(() => prepareOperation(s, { role: 'user', variables: {} }, { query: '{ hello(whom: "you") }' }, { extensions })) as unknown as { message: string; path: string };
  t.is(err.path, '$.selectionSet.hello.args.whom');
  // not in subscription_root when the contributor says so
  const sub = t.throws(() => prepareOperation(s, { role: 'user', variables: {} }, { query: 'subscription { hello }' }, { extensions })) as unknown as { message: string };
  t.is(sub.message, 'no subscriptions exist');
});
