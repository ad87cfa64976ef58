import test from 'ava';
import { EngineError } from '../../src/core/errors.js';
import { mapExecutionError } from '../../src/core/pg-errors.js';
import { parseBody } from '../../src/graphql/request-body.js';

const pgError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

test('Postgres error classes map to the original codes and messages', (t) => {
  const m = (code: string, msg = 'm') => {
    const e = mapExecutionError(pgError(code, msg), null);
    return [e.code, e.message, e.path, e.status];
  };
  t.deepEqual(m('22P02', 'bad int'), ['data-exception', 'bad int', '$', 400]);
  t.deepEqual(m('22025', 'LIKE pattern must not end with escape character'), ['bad-request', 'LIKE pattern must not end with escape character', '$', 400]);
  t.deepEqual(m('23505', 'dup'), ['constraint-violation', 'Uniqueness violation. dup', '$', 400]);
  t.deepEqual(m('23503', 'fk'), ['constraint-violation', 'Foreign key violation. fk', '$', 400]);
  t.deepEqual(m('23502', 'nn'), ['constraint-violation', 'Not-NULL violation. nn', '$', 400]);
  t.deepEqual(m('23001', 'r'), ['constraint-violation', 'Can not delete or update due to data being referred. r', '$', 400]);
  t.deepEqual(m('23P01', 'x'), ['constraint-violation', 'Exclusion violation. x', '$', 400]);
  t.deepEqual(m('23514', 'insert check constraint failed'), ['permission-error', 'Check constraint violation. insert check constraint failed', '$', 400]);
  t.deepEqual(m('42P10', 'there is no unique or exclusion constraint matching the ON CONFLICT specification'),
    ['constraint-error', 'there is no unique or exclusion constraint on target column(s)', '$', 400]);
  t.deepEqual(m('42703', 'column "x" does not exist'), ['constraint-error', 'column "x" does not exist', '$', 400]);
  t.deepEqual(m('XX000', 'internal'), ['unexpected', 'database query error', '$', 500]);
  const passthrough = new EngineError('validation-failed', 'v');
  t.is(mapExecutionError(passthrough, null), passthrough);
  t.is(mapExecutionError(new Error('socket hang up'), null).message, 'database query error');
});

test('request body shapes', (t) => {
  t.deepEqual(parseBody({ query: 'q' }), { batch: false, request: { query: 'q', operationName: null, variables: null } });
  t.deepEqual(parseBody([{ query: 'a', operationName: 'A', variables: { x: 1 } }]), { batch: true, requests: [{ query: 'a', operationName: 'A', variables: { x: 1 } }] });
  const fail = (body: unknown) => {
    const e = t.throws(() => parseBody(body)) as EngineError;
    return [e.code, e.path, e.message];
  };
  t.deepEqual(fail('x'), ['parse-failed', '$', 'expected Object, encountered String']);
  t.deepEqual(fail([{ query: 'a' }, {}]), ['parse-failed', '$[1]', 'key "query" not found']);
  t.deepEqual(fail({ query: 'a', variables: [] }), ['parse-failed', '$.variables', 'expected HashMap ~Text v, encountered Array']);
  t.deepEqual(fail({ query: 'a', operationName: 3 }), ['parse-failed', '$.operationName', 'expected String, encountered Number']);
});
