// PostGIS operators in where and in permissions (skipped when the postgis extension is not installed).
import test from 'ava';
import { postgisAvailable } from '../helpers/capabilities.js';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { prep, prepError, admin } from './fixture.js';

let e: TestEngine;
// A server without the extension (the embedded one npm test may start) skips these tests.
const available = await postgisAvailable();
const maybe = available ? test : test.skip;

test.before(async () => {
  if (!available) return;
  e = await startTestEngine();
  const r = await e.query({
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: `CREATE EXTENSION IF NOT EXISTS postgis;
        CREATE TABLE place (id serial PRIMARY KEY, geom geometry(Point, 4326), geog geography(Point));` } },
      { type: 'track_table', args: { name: 'place', schema: 'public' } },
      {
        type: 'create_select_permission',
        args: { table: 'place', role: 'near', permission: { columns: ['id'], filter: { geom: { $st_d_within: { distance: 'X-Engine-Dist', from: 'X-Engine-Point' } } } } },
      },
    ],
  });
  if (r.status !== 200) throw new Error(r.text);
});
test.after.always(async () => {
  await e?.close();
});

maybe('geometry and geography comparison types carry the PostGIS operators', (t) => {
  const p = prep(e, admin, '{ __type(name: "geometry_comparison_exp") { inputFields { name } } g: __type(name: "st_d_within_geography_input") { inputFields { name defaultValue } } }');
  const raw = p.ir.fields.map(([, f]) => (f.kind === 'raw' ? JSON.parse(f.json) : null));
  t.deepEqual(raw[0].inputFields.map((f: { name: string }) => f.name), [
    '_cast', '_eq', '_gt', '_gte', '_in', '_is_null', '_lt', '_lte', '_neq', '_nin',
    '_st_contains', '_st_crosses', '_st_d_within', '_st_equals', '_st_intersects', '_st_overlaps', '_st_touches', '_st_within',
  ]);
  t.deepEqual(raw[1].inputFields, [{ name: 'distance', defaultValue: null }, { name: 'from', defaultValue: null }, { name: 'use_spheroid', defaultValue: 'true' }]);
});

maybe('IR of _st_d_within, _cast and GeoJSON literals; permission filters with session variables', (t) => {
  const p = prep(e, admin, `{ place(where: {
      geom: {_st_within: {type: "Point", coordinates: [1, 2]}},
      geog: {_cast: {geometry: {_st_d_within: {distance: 2, from: {type: "Point", coordinates: [0, 0]}}}}}
    }) { id geom } }`);
  const root = p.ir.fields[0][1];
  if (root.kind !== 'select') return t.fail();
  const w = root.select.args.where as { kind: 'and'; items: Array<Record<string, unknown>> };
  t.like(w.items[0], { kind: 'column', column: 'geom', op: '_st_within', value: { kind: 'literal', value: { type: 'Point', coordinates: [1, 2] } } });
  t.like(w.items[1], {
    kind: 'column', column: 'geog', op: '_st_d_within', cast: { type: 'geometry' },
    value: { kind: 'st_d_within', distance: { kind: 'literal', value: '2' }, useSpheroid: null },
  });
  const near = prep(e, { role: 'near', variables: { 'x-engine-role': 'near' } }, '{ place { id } }').ir.fields[0][1];
  t.like(near, { kind: 'select', select: { args: { where: { kind: 'column', op: '_st_d_within', value: { kind: 'st_d_within', distance: { kind: 'session', name: 'x-engine-dist' }, from: { kind: 'session', name: 'x-engine-point' } } } } } });
  t.deepEqual(prepError(e, admin, '{ place(where: {geom: {_cast: {integer: {_eq: 1}}}}) { id } }'), {
    code: 'validation-failed', message: 'field "integer" not found in type: \'geometry_cast_exp\'', path: '$.selectionSet.place.args.where.geom._cast.integer',
  });
});
