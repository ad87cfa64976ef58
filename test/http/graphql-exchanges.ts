// Expected exchanges of the GraphQL endpoints (direct routes of the request pipeline): each request with the status,
// headers and body the client must get, and what the request's http-log line says. Written by hand from the spec
// (SPEC.md; SPEC-NOTES-runtime §1 for statuses, error bodies, x-request-id and gzip) and the engine's documented
// additions (x-engine-metadata-version, CORS as the original's middleware sends it), not captured from a run.
//
// Placeholders, for what the spec does not fix: '<uuid>' a generated request id (the same in the header and the log
// line), '<string>' any non-empty message (a JSON parser's wording), '<body length>' the byte length of the body as
// sent (after gzip).

/** item(id int primary key, name text): 60 rows, `item 1` ... `item 60`. */
export const SETUP_SQL = "CREATE TABLE item (id int PRIMARY KEY, name text); INSERT INTO item SELECT g, 'item ' || g FROM generate_series(1, 60) g;";
/** The set-up is two metadata events (sql_ran, table_tracked): every request is served at metadata version 2. */
const SEQ = '2';

const JSON_TYPE = 'application/json; charset=utf-8';
const ORIGIN = 'http://example.com';
/** The original's CORS middleware: the allowed origin echoed, with credentials and its fixed method list. */
const CORS = {
  'access-control-allow-origin': ORIGIN,
  'access-control-allow-credentials': 'true',
  'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,OPTIONS',
};

/** The headers of every answer that was executed: JSON, the request id, the metadata version it was served at. */
const served = (requestId = '<uuid>'): Record<string, string> => ({
  'content-type': JSON_TYPE,
  'content-length': '<body length>',
  'x-request-id': requestId,
  'x-engine-metadata-version': SEQ,
});
/** An answer to a body that is not JSON (refused before any metadata was read): no metadata version. */
const refused = (requestId = '<uuid>'): Record<string, string> => ({ 'content-type': JSON_TYPE, 'content-length': '<body length>', 'x-request-id': requestId });

const rows = (from: number, to: number, fields: 'id' | 'id name') =>
  Array.from({ length: to - from + 1 }, (_, i) => (fields === 'id' ? { id: from + i } : { id: from + i, name: `item ${from + i}` }));
const error = (code: string, path: string, message = '<string>') => ({ errors: [{ extensions: { path, code }, message }] });
const notFoundInQueryRoot = (field: string) => error('validation-failed', `$.selectionSet.${field}`, `field "${field}" not found in type: 'query_root'`);

export interface Exchange {
  name: string;
  /** Which engine answers: the default one, or one started with --disable-cors. */
  server?: 'default' | 'no-cors';
  request: { path: string; headers?: Record<string, string>; body: unknown; bodyText?: string };
  response: { status: number; headers: Record<string, string>; body: unknown };
  /** What the request's http-log line holds (at least); `error` only when the request failed as a whole. */
  log: { http_info: Record<string, unknown>; operation: Record<string, unknown> };
}

const logged = (url: string, status: number, operation: Record<string, unknown>, contentEncoding: string | null = null) => ({
  http_info: { method: 'POST', url, status, http_version: 'HTTP/1.1', content_encoding: contentEncoding },
  operation,
});
const admin = { 'x-engine-role': 'admin' };

export const EXCHANGES: Exchange[] = [
  {
    name: 'a query: its data; the client request id echoed',
    request: { path: '/v1/graphql', headers: { 'x-request-id': 'ex-query' }, body: { query: '{ item(limit: 2, order_by: {id: asc}) { id name } }' } },
    response: { status: 200, headers: served('ex-query'), body: { data: { item: rows(1, 2, 'id name') } } },
    log: logged('/v1/graphql', 200, { request_id: 'ex-query', user_vars: admin }),
  },
  {
    name: 'variables and an operation name; no request id sent: one is made',
    request: { path: '/v1/graphql', body: { query: 'query Q($id: Int!) { item_by_pk(id: $id) { name } }', variables: { id: 3 }, operationName: 'Q' } },
    response: { status: 200, headers: served(), body: { data: { item_by_pk: { name: 'item 3' } } } },
    log: logged('/v1/graphql', 200, { request_id: '<uuid>', user_vars: admin }),
  },
  {
    name: 'a batch: one answer per request, in order',
    request: { path: '/v1/graphql', body: [{ query: '{ item(limit: 1, order_by: {id: asc}) { id } }' }, { query: '{ item_by_pk(id: 2) { id } }' }] },
    response: { status: 200, headers: served(), body: [{ data: { item: rows(1, 1, 'id') } }, { data: { item_by_pk: { id: 2 } } }] },
    log: logged('/v1/graphql', 200, { request_id: '<uuid>', user_vars: admin }),
  },
  {
    name: 'a body that is not JSON: invalid-json, with status 200',
    request: { path: '/v1/graphql', headers: { 'x-request-id': 'ex-invalid' }, body: null, bodyText: '{' },
    response: { status: 200, headers: refused('ex-invalid'), body: error('invalid-json', '$') },
    log: logged('/v1/graphql', 200, { request_id: 'ex-invalid', error: { code: 'invalid-json', path: '$' } }),
  },
  {
    name: 'JSON of the wrong shape: parse-failed at the member',
    request: { path: '/v1/graphql', body: { query: 1 } },
    response: { status: 200, headers: served(), body: error('parse-failed', '$.query') },
    log: logged('/v1/graphql', 200, { request_id: '<uuid>', error: { code: 'parse-failed', path: '$.query' } }),
  },
  {
    name: 'an unknown field: validation-failed with the original message; the query is logged',
    request: { path: '/v1/graphql', body: { query: '{ nope }' } },
    response: { status: 200, headers: served(), body: notFoundInQueryRoot('nope') },
    log: logged('/v1/graphql', 200, { request_id: '<uuid>', error: { code: 'validation-failed', path: '$.selectionSet.nope' }, query: { query: '{ nope }' } }),
  },
  {
    name: 'a subscription over HTTP: unexpected-payload',
    request: { path: '/v1/graphql', body: { query: 'subscription { item { id } }' } },
    response: { status: 200, headers: served(), body: error('unexpected-payload', '$', 'subscriptions are not supported over HTTP, use websockets instead') },
    log: logged('/v1/graphql', 200, { request_id: '<uuid>', error: { code: 'unexpected-payload' } }),
  },
  {
    name: 'a role with no permission on item: the field does not exist for it',
    request: { path: '/v1/graphql', headers: { 'x-engine-role': 'user', 'x-engine-user-id': '7' }, body: { query: '{ item { id } }' } },
    response: { status: 200, headers: served(), body: notFoundInQueryRoot('item') },
    log: logged('/v1/graphql', 200, { request_id: '<uuid>', user_vars: { 'x-engine-role': 'user', 'x-engine-user-id': '7' }, error: { code: 'validation-failed' } }),
  },
  {
    name: 'an Origin (CORS allows every origin by default): the CORS headers',
    request: { path: '/v1/graphql', headers: { origin: ORIGIN }, body: { query: '{ item(limit: 1, order_by: {id: asc}) { id } }' } },
    response: { status: 200, headers: { ...served(), ...CORS }, body: { data: { item: rows(1, 1, 'id') } } },
    log: logged('/v1/graphql', 200, { request_id: '<uuid>' }),
  },
  {
    name: 'CORS disabled: no CORS headers, even for an Origin',
    server: 'no-cors',
    request: { path: '/v1/graphql', headers: { origin: ORIGIN }, body: { query: '{ __typename }' } },
    response: { status: 200, headers: served(), body: { data: { __typename: 'query_root' } } },
    log: logged('/v1/graphql', 200, { request_id: '<uuid>' }),
  },
  {
    name: 'gzip accepted and a large body (60 rows): compressed',
    request: { path: '/v1/graphql', headers: { 'accept-encoding': 'gzip, deflate' }, body: { query: '{ item(order_by: {id: asc}) { id name } }' } },
    response: { status: 200, headers: { ...served(), 'content-encoding': 'gzip' }, body: { data: { item: rows(1, 60, 'id name') } } },
    log: logged('/v1/graphql', 200, { request_id: '<uuid>' }, 'gzip'),
  },
  {
    // The engine's choice: under 1024 bytes gzip would not make the body smaller, and costs CPU.
    name: 'gzip accepted but a small body: sent as it is',
    request: { path: '/v1/graphql', headers: { 'accept-encoding': 'gzip' }, body: { query: '{ item(limit: 1, order_by: {id: asc}) { id } }' } },
    response: { status: 200, headers: served(), body: { data: { item: rows(1, 1, 'id') } } },
    log: logged('/v1/graphql', 200, { request_id: '<uuid>' }),
  },
  {
    name: 'x-engine-min-metadata-version already reached: answered at once',
    request: { path: '/v1/graphql', headers: { 'x-engine-min-metadata-version': SEQ }, body: { query: '{ item_by_pk(id: 60) { name } }' } },
    response: { status: 200, headers: served(), body: { data: { item_by_pk: { name: 'item 60' } } } },
    log: logged('/v1/graphql', 200, { request_id: '<uuid>' }),
  },
  {
    name: 'a query string is no part of the route: /v1/graphql?x=1 is /v1/graphql',
    request: { path: '/v1/graphql?x=1', body: { query: '{ item_by_pk(id: 5) { id } }' } },
    response: { status: 200, headers: served(), body: { data: { item_by_pk: { id: 5 } } } },
    log: logged('/v1/graphql', 200, { request_id: '<uuid>' }),
  },
  {
    name: 'legacy /v1alpha1/graphql: data as on /v1/graphql',
    request: { path: '/v1alpha1/graphql', body: { query: '{ item_by_pk(id: 4) { name } }' } },
    response: { status: 200, headers: served(), body: { data: { item_by_pk: { name: 'item 4' } } } },
    log: logged('/v1alpha1/graphql', 200, { request_id: '<uuid>' }),
  },
  {
    name: 'legacy /v1alpha1/graphql: an error answers with its own status (400), same body',
    request: { path: '/v1alpha1/graphql', body: { query: '{ nope }' } },
    response: { status: 400, headers: served(), body: notFoundInQueryRoot('nope') },
    log: logged('/v1alpha1/graphql', 400, { request_id: '<uuid>', error: { code: 'validation-failed' } }),
  },
  {
    name: 'legacy /v1alpha1/graphql: a body that is not JSON is a 400',
    request: { path: '/v1alpha1/graphql', body: null, bodyText: 'not json' },
    response: { status: 400, headers: refused(), body: error('invalid-json', '$') },
    log: logged('/v1alpha1/graphql', 400, { request_id: '<uuid>', error: { code: 'invalid-json' } }),
  },
  {
    name: '/v1beta1/relay: a connection, first 2',
    request: { path: '/v1beta1/relay', body: { query: '{ item_connection(first: 2, order_by: {id: asc}) { edges { node { name } } pageInfo { hasNextPage } } }' } },
    response: {
      status: 200,
      headers: served(),
      body: { data: { item_connection: { edges: [{ node: { name: 'item 1' } }, { node: { name: 'item 2' } }], pageInfo: { hasNextPage: true } } } },
    },
    log: logged('/v1beta1/relay', 200, { request_id: '<uuid>' }),
  },
  {
    name: '/v1beta1/relay: an error is 200, as on /v1/graphql',
    request: { path: '/v1beta1/relay', body: { query: '{ item { id } }' } },
    response: { status: 200, headers: served(), body: notFoundInQueryRoot('item') },
    log: logged('/v1beta1/relay', 200, { request_id: '<uuid>', error: { code: 'validation-failed' } }),
  },
];
