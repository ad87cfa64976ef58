// Remote relationships over websockets: a query or a mutation with a remote join is answered as over HTTP (one data message);
// a subscription selecting one is refused before execution with the original's message. Real engine, real
// Postgres, a real graphql-js server on loopback.
import test from 'ava';
import { queryOk } from '../helpers/engine.js';
import { WsClient } from '../helpers/ws.js';
import { basicRelationship, startFixture } from './relationship-fixture.js';

test('websocket: a query and a mutation with a remote join, and a subscription refused', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'create_remote_relationship', args: basicRelationship });
  const c = await WsClient.connect(f.engine.url, {}, '/v1/graphql', 'graphql-ws');
  t.teardown(() => c.close());
  c.send({ id: '1', type: 'start', payload: { query: '{ profiles(order_by: {id: asc}, limit: 2) { id messageBasic { msg } } }' } });
  t.deepEqual(await c.nextFor('1'), {
    id: '1', type: 'data', payload: { data: { profiles: [{ id: 1, messageBasic: { msg: 'You win!' } }, { id: 2, messageBasic: { msg: 'You lose!' } }] } },
  });
  t.deepEqual(await c.nextFor('1'), { id: '1', type: 'complete' });
  c.send({ id: 'm', type: 'start', payload: { query: 'mutation { update_profiles(where: {id: {_eq: 2}}, _set: {name: "b"}) { returning { name messageBasic { msg } } } }' } });
  t.deepEqual(await c.nextFor('m'), {
    id: 'm', type: 'data', payload: { data: { update_profiles: { returning: [{ name: 'b', messageBasic: { msg: 'You lose!' } }] } } },
  });
  t.deepEqual(await c.nextFor('m'), { id: 'm', type: 'complete' });
  c.send({ id: 's', type: 'start', payload: { query: 'subscription { profiles { id messageBasic { msg } } }' } });
  t.deepEqual(await c.nextFor('s'), {
    id: 's', type: 'error', payload: { errors: [{ extensions: { path: '$', code: 'not-supported' }, message: 'Remote relationships are not allowed in subscriptions' }] },
  });
  // The same subscription without the remote field is served.
  c.send({ id: 'ok', type: 'start', payload: { query: 'subscription { profiles(order_by: {id: asc}, limit: 1) { id } }' } });
  t.deepEqual(await c.nextFor('ok'), { id: 'ok', type: 'data', payload: { data: { profiles: [{ id: 1 }] } } });
});
