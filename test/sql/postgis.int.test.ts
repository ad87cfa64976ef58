import test from 'ava';
import pg from 'pg';
import { postgisAvailable } from '../helpers/capabilities.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import type { BoolExpIR, PgTypeRef, ValueIR } from '../../src/ir/types.js';
import { runOperation } from './db.js';
import { asc, col, query, rootSelect, select, table, T } from './ir.js';

// A server without the extension (the embedded one npm test may start) skips these tests.
const available = await postgisAvailable();
const maybe = available ? test : test.skip;

let db: TestDatabase;
let pool: pg.Pool;

test.before(async () => {
  if (!available) return;
  db = await createTestDatabase('c2gis');
  pool = new pg.Pool({ connectionString: db.url, max: 1 });
  await pool.query(`
    CREATE EXTENSION postgis;
    CREATE TABLE geom (id int PRIMARY KEY, g geometry);
    INSERT INTO geom VALUES (1, ST_GeomFromText('POINT(1 2)', 4326)), (2, ST_GeomFromText('LINESTRING(0 0, 1 2, 2 4)', 4326));
    CREATE TABLE geog (id int PRIMARY KEY, name text, g geography);
    INSERT INTO geog VALUES (1, 'London', ST_GeogFromText('SRID=4326;POINT(-0.13 51.5)')), (2, 'Paris', ST_GeogFromText('SRID=4326;POINT(2.35 48.86)')),
      (3, 'NY', ST_GeogFromText('SRID=4326;POINT(-74 40.7)'));
  `);
});
test.after.always(async () => {
  await pool?.end();
  await db?.drop();
});

const GEOM: PgTypeRef = { type: 'geometry', typeSchema: 'public', array: false };
const GEOG: PgTypeRef = { type: 'geography', typeSchema: 'public', array: false };
const point = (x: number, y: number) => ({ type: 'Point', coordinates: [x, y], crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4326' } } });
const v = (name: string, pgType: PgTypeRef): ValueIR => ({ kind: 'variable', name, path: [], pgType });

const ids = (tbl: string, where: BoolExpIR, vars: Record<string, unknown>, extra: Array<[string, ReturnType<typeof col>]> = []) =>
  runOperation(pool, query(['a', rootSelect(select(table(tbl), [['id', col('id')], ...extra], { where, orderBy: [asc('id')] }))]), vars);

maybe('geometry output is GeoJSON; GeoJSON inputs; ST_ operators', async (t) => {
  t.is(await ids('geom', { kind: 'column', column: 'g', op: '_st_contains', value: v('p', GEOM) }, { p: point(1, 2) }, [['g', col('g', 'geometry')]]),
    '{"a":[{"id":1,"g":{"type":"Point","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::4326"}},"coordinates":[1,2]}},' +
    '{"id":2,"g":{"type":"LineString","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::4326"}},"coordinates":[[0,0],[1,2],[2,4]]}}]}');
  t.is(await ids('geom', { kind: 'column', column: 'g', op: '_st_equals', value: v('p', GEOM) }, { p: point(1, 2) }), '{"a":[{"id":1}]}');
  t.is(await ids('geom', { kind: 'column', column: 'g', op: '_st_d_within', value: { kind: 'st_d_within', from: v('p', GEOM), distance: { kind: 'literal', value: '0.5', pgType: T('float8') }, useSpheroid: null } }, { p: point(1, 2.4) }), '{"a":[{"id":1},{"id":2}]}');
});

maybe('geography: d_within with and without spheroid, cast to geometry', async (t) => {
  const dw = (sph: boolean | null): BoolExpIR => ({ kind: 'column', column: 'g', op: '_st_d_within', value: {
    kind: 'st_d_within', from: v('p', GEOG), distance: { kind: 'literal', value: '1000000', pgType: T('float8') },
    useSpheroid: sph === null ? { kind: 'literal', value: true, pgType: T('bool') } : { kind: 'literal', value: sph, pgType: T('bool') } } });
  t.is(await ids('geog', dw(null), { p: point(1, 50) }), '{"a":[{"id":1},{"id":2}]}');
  t.is(await ids('geog', dw(false), { p: point(1, 50) }), '{"a":[{"id":1},{"id":2}]}');
  const cast: BoolExpIR = { kind: 'column', column: 'g', cast: GEOM, op: '_st_within', value: v('poly', GEOM) };
  const poly = { type: 'Polygon', coordinates: [[[-80, 30], [-70, 30], [-70, 45], [-80, 45], [-80, 30]]], crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4326' } } };
  t.is(await ids('geog', cast, { poly }), '{"a":[{"id":3}]}');
});
