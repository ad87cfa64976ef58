// The metadata YAML writer against YAML written by hand in the original CLI's style (its docs' examples and the
// quoting rules of Go's yaml.v2): byte for byte, and read back to the same value.
import test from 'ava';
import { readYaml, toYamlV2 } from '../../src/project/yaml-v2.js';
import { goFloat } from '../../src/project/yaml-scalars.js';

// The tables.yaml example of the original's metadata format reference (config v2).
const TABLES = `- table:
    schema: public
    name: authors
  insert_permissions:
  - role: user
    permission:
      check:
        id:
          _eq: X-Hasura-User-Id
      columns:
      - name
      backend_only: false
  array_relationships:
  - name: books
    using:
      foreign_key_constraint_on:
        column: author_id
        table:
          schema: public
          name: books
  event_triggers:
  - name: event_test
    definition:
      enable_manual: false
      insert:
        columns: '*'
    retry_conf:
      num_retries: 1
      interval_sec: 10
      timeout_sec: 60
    webhook: <webhook_url>
- table:
    schema: public
    name: books
  object_relationships:
  - name: author
    using:
      foreign_key_constraint_on: author_id
  select_permissions:
  - role: user
    permission:
      columns: []
      filter: {}
`;

test('a tables.yaml in the original style is written back byte for byte', (t) => {
  const value = readYaml(TABLES);
  t.is(toYamlV2(value), TABLES);
});

test('the actions.yaml example (query action: kind "", handler with a template) is written back byte for byte', (t) => {
  const text = `actions:
- name: greet
  definition:
    kind: ""
    handler: '{{ACTION_BASE_URL}}/greet'
    forward_client_headers: true
    headers:
    - value: application/json
      name: Content-Type
custom_types:
  enums: []
  input_objects:
  - name: SampleInput
  objects:
  - name: SampleOutput
  scalars: []
`;
  t.is(toYamlV2(readYaml(text)), text);
});

test('multi-line queries are literal blocks: |- without a final newline, | with one, |2 for a leading space', (t) => {
  const value = [{ name: 'allowed-queries', definition: { queries: [
    { name: 'q1', query: 'query test {\n  books {\n    id\n  }\n}' },
    { name: 'q2', query: 'query two {\n  x\n}\n' },
    { name: 'q3', query: ' indented\nnext' },
  ] } }];
  t.is(toYamlV2(value), `- name: allowed-queries
  definition:
    queries:
    - name: q1
      query: |-
        query test {
          books {
            id
          }
        }
    - name: q2
      query: |
        query two {
          x
        }
    - name: q3
      query: |2-
         indented
        next
`);
  t.deepEqual(readYaml(toYamlV2(value)), value);
});

test('strings are quoted exactly when yaml.v2 quotes them', (t) => {
  const cases: Array<[string, string]> = [
    ['plain text', 'plain text'],
    ['X-Hasura-User-Id', 'X-Hasura-User-Id'],
    ['http://localhost:3000/x', 'http://localhost:3000/x'],
    ['true', '"true"'],
    ['yes', '"yes"'],
    ['Off', '"Off"'],
    ['~', '"~"'],
    ['', '""'],
    ['123', '"123"'],
    ['-1.5e3', '"-1.5e3"'],
    ['0x1F', '"0x1F"'],
    ['1_000', '"1_000"'],
    ['12:30', '"12:30"'],
    ['2020-01-31', '"2020-01-31"'],
    ['2020-02-30', '2020-02-30'],
    ['*', "'*'"],
    ['a: b', "'a: b'"],
    ['ends with:', "'ends with:'"],
    ['- item', "'- item'"],
    ['#comment', "'#comment'"],
    ['x #y', "'x #y'"],
    ['x#y', 'x#y'],
    [' lead', "' lead'"],
    ['trail ', "'trail '"],
    ["it's", "it's"],
    ["'quoted'", "'''quoted'''"],
    ['{"a":1}', `'{"a":1}'`],
    ['tab\there', '"tab\\there"'],
    ['bell\u0007', '"bell\\a"'],
    ['smile 😀', '"smile \\U0001F600"'],
    ['café', 'café'],
    ['trailing space \nline', '"trailing space \\nline"'],
  ];
  for (const [s, written] of cases) {
    t.is(toYamlV2({ k: s }), `k: ${written}\n`, JSON.stringify(s));
    t.deepEqual(readYaml(toYamlV2({ k: s })), { k: s }, JSON.stringify(s));
  }
});

test('keys are quoted like values (y and n are booleans in YAML 1.1)', (t) => {
  t.is(toYamlV2({ y: 1, n: 2, on: 3, name: 4 }), '"y": 1\n"n": 2\n"on": 3\nname: 4\n');
});

test('numbers, booleans, null and empty collections as yaml.v2 writes them', (t) => {
  t.is(toYamlV2({ a: 10, b: 1.5, c: 1234567.5, d: 0.00001, e: 0.0001, f: -2, g: true, h: null, i: [], j: {}, k: [[1, 2], []] }),
    'a: 10\nb: 1.5\nc: 1.2345675e+06\nd: 1e-05\ne: 0.0001\nf: -2\ng: true\nh: null\ni: []\nj: {}\nk:\n- - 1\n  - 2\n- []\n');
  t.is(toYamlV2([]), '[]\n');
  t.is(goFloat(123456.25), '123456.25');
  t.is(goFloat(1e21), '1e+21');
});

test('reading: YAML 1.1 booleans, dates stay strings, duplicate keys are refused', (t) => {
  t.deepEqual(readYaml('a: yes\nb: 2020-01-01\nc: "x"\n'), { a: true, b: '2020-01-01', c: 'x' });
  t.throws(() => readYaml('a: 1\na: 2\n'));
});
