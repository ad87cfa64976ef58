// Every error response's http-log line names its code (issue 8; detail.operation.error.code since issue 14): bodies that are not JSON on each endpoint, unknown
// paths, bad requests. The code in the log line is the code of the body the client got.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';

const lines: string[] = [];
let e: TestEngine;
test.before(async () => {
  e = await startTestEngine({ logSink: (l) => lines.push(l) });
});
test.after.always(async () => {
  await e?.close();
});

type Line = { type: string; detail: { operation: { request_id: string } } };
const logFor = (requestId: string): Line | undefined =>
  lines.map((l) => JSON.parse(l) as Line).find((x) => x.type === 'http-log' && x.detail.operation.request_id === requestId);

/** The code the client sees: metadata-style `code`, or the first GraphQL error's `extensions.code`. */
function bodyCode(body: unknown): string | undefined {
  const b = body as { code?: string; errors?: Array<{ extensions?: { code?: string } }> };
  return b.code ?? b.errors?.[0]?.extensions?.code;
}

const cases: Array<[string, string, string, unknown, string]> = [
  ['POST', '/v1/query', 'not json', undefined, 'invalid-json'],
  ['POST', '/v1/graphql', 'not json', undefined, 'invalid-json'],
  ['POST', '/v1/graphql', '{"query": ', undefined, 'invalid-json'],
  ['POST', '/v1/query', '{"type": ', undefined, 'invalid-json'],
  // A query string is no part of the path the log line names, on a direct route and on a koa one.
  ['POST', '/v1/graphql?x=1', '{"query": "{ nope }"}', undefined, 'validation-failed'],
  ['POST', '/v1/graphql/explain?x=1', 'not json', undefined, 'invalid-json'],
  ['POST', '/v1alpha1/graphql', 'not json', undefined, 'invalid-json'],
  ['POST', '/v1beta1/relay', 'not json', undefined, 'invalid-json'],
  ['POST', '/v1/graphql/explain', 'not json', undefined, 'invalid-json'],
  ['POST', '/v1alpha1/pg_dump', 'not json', undefined, 'invalid-json'],
  ['POST', '/v1/graphql', '{"query": "{ nope }"}', undefined, 'validation-failed'],
  ['POST', '/v1/graphql', '{"query": 5}', undefined, 'parse-failed'],
  ['POST', '/v1/query', '"just a string"', undefined, 'parse-failed'],
  ['POST', '/v1/query', '{"type": "nope", "args": {}}', undefined, 'parse-failed'],
  ['POST', '/v1/graphql', '', undefined, 'invalid-json'],
  ['POST', '/v1/graphql', '{"query": "{ __typename }"} trailing', undefined, 'invalid-json'],
  ['POST', '/v1alpha1/graphql', '{"query": 5}', undefined, 'parse-failed'],
  ['POST', '/v1beta1/relay', '{"query": "{ nope }"}', undefined, 'validation-failed'],
  ['POST', '/v1/graphql', '\u00ff\u00fe', undefined, 'invalid-json'],
  ['GET', '/missing', '', undefined, 'not-found'],
  ['POST', '/v1/nothing-here', '{}', undefined, 'not-found'],
];

for (const [method, path, body, , code] of cases) {
  test(`${method} ${path} with ${JSON.stringify(body)}: the log line names ${code}`, async (t) => {
    const requestId = `codes-${method}-${path}-${body.length}`;
    const res = await fetch(`${e.url}${path}`, {
      method,
      headers: { 'x-request-id': requestId, 'content-type': 'application/json' },
      ...(method === 'GET' ? {} : { body }),
    });
    const text = await res.text();
    t.is(bodyCode(JSON.parse(text)), code, text);
    // The line is written once the response is out: wait for it (a loaded machine can take longer than any pause).
    for (const end = Date.now() + 30_000; !logFor(requestId) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
    t.like(logFor(requestId), { detail: { http_info: { url: path.split('?')[0], status: res.status }, operation: { error: { code } } } });
  });
}
