// Hand-built IR of the bench queries Q1-Q6 (used to compare the compiler's SQL with the bench ceiling by hand).
import type { OperationIR } from '../../src/ir/operation.js';
import { asc, col, cols, desc, query, rel, rootAgg, rootSelect, select, table, variable, args } from './ir.js';

export const Q1: OperationIR = query(['artist', rootSelect(select(table('artist'), [...cols('id'), ['name', col('name', 'text')]], {
  orderBy: [asc('id')], limit: { kind: 'literal', value: 20, pgType: { type: 'int4', typeSchema: 'pg_catalog', array: false } },
}))]);

export const Q2: OperationIR = query(['track_by_pk', { kind: 'select_one', select: select(table('track'), [
  ...cols('id'), ['name', col('name', 'text')], ['composer', col('composer', 'text')], ...cols('milliseconds', 'bytes'), ['unit_price', col('unit_price', 'numeric')],
], { where: { kind: 'column', column: 'id', op: '_eq', value: variable('id') } }) }]);

export const Q3: OperationIR = query(['artist', rootSelect(select(table('artist'), [
  ...cols('id'), ['name', col('name', 'text')],
  ['albums', { kind: 'array_relationship', relationship: rel('albums', 'array', 'album', [['id', 'artist_id']]), select: select(table('album'), [
    ...cols('id'), ['title', col('title', 'text')],
    ['tracks', { kind: 'array_relationship', relationship: rel('tracks', 'array', 'track', [['id', 'album_id']]), select: select(table('track'), [
      ...cols('id'), ['name', col('name', 'text')], ...cols('milliseconds')], { orderBy: [asc('id')] }) }],
  ], { orderBy: [asc('id')] }) }],
], { orderBy: [asc('id')], limit: { kind: 'literal', value: 10, pgType: { type: 'int4', typeSchema: 'pg_catalog', array: false } } }))]);

export const Q4: OperationIR = query(['track', rootSelect(select(table('track'), [...cols('id'), ['name', col('name', 'text')], ...cols('album_id', 'milliseconds'), ['unit_price', col('unit_price', 'numeric')]], {
  where: { kind: 'and', items: [{ kind: 'column', column: 'genre_id', op: '_eq', value: variable('genreId') }, { kind: 'column', column: 'milliseconds', op: '_gt', value: variable('minMs') }] },
  orderBy: [desc('milliseconds'), asc('id')], limit: { kind: 'literal', value: 50, pgType: { type: 'int4', typeSchema: 'pg_catalog', array: false } },
}))]);

export const Q5: OperationIR = query(['track_aggregate', rootAgg({ source: table('track'), args: args({
  where: { kind: 'relationship', relationship: rel('album', 'object', 'album', [['album_id', 'id']]), where: { kind: 'column', column: 'artist_id', op: '_eq', value: variable('artistId') } },
}), fields: [['aggregate', { kind: 'aggregate', fields: [
  ['count', { kind: 'count', columns: null, distinct: false }],
  ['avg', { kind: 'op', op: 'avg', fields: [['milliseconds', { kind: 'column', column: 'milliseconds', type: 'int4' }], ['unit_price', { kind: 'column', column: 'unit_price', type: 'numeric' }]] }],
  ['max', { kind: 'op', op: 'max', fields: [['milliseconds', { kind: 'column', column: 'milliseconds', type: 'int4' }]] }],
] }]] })]);

export const Q6: OperationIR = query(['customer', rootSelect(select(table('customer'), [
  ...cols('id'), ['first_name', col('first_name', 'text')], ['last_name', col('last_name', 'text')], ['email', col('email', 'text')],
  ['invoices', { kind: 'array_relationship', relationship: rel('invoices', 'array', 'invoice', [['id', 'customer_id']]), select: select(table('invoice'), [
    ...cols('id'), ['invoice_date', col('invoice_date', 'timestamp')], ['total', col('total', 'numeric')],
    ['lines', { kind: 'array_relationship', relationship: rel('lines', 'array', 'invoice_line', [['id', 'invoice_id']]), select: select(table('invoice_line'), [
      ...cols('id', 'quantity'), ['unit_price', col('unit_price', 'numeric')],
      ['track', { kind: 'object_relationship', relationship: rel('track', 'object', 'track', [['track_id', 'id']]), select: select(table('track'), [
        ...cols('id'), ['name', col('name', 'text')],
        ['album', { kind: 'object_relationship', relationship: rel('album', 'object', 'album', [['album_id', 'id']]), select: select(table('album'), [
          ...cols('id'), ['title', col('title', 'text')],
          ['artist', { kind: 'object_relationship', relationship: rel('artist', 'object', 'artist', [['artist_id', 'id']]), select: select(table('artist'), [...cols('id'), ['name', col('name', 'text')]]) }],
        ]) }],
      ]) }],
    ], { orderBy: [asc('id')] }) }],
  ], { orderBy: [asc('id')] }) }],
], { orderBy: [asc('id')], limit: { kind: 'literal', value: 5, pgType: { type: 'int4', typeSchema: 'pg_catalog', array: false } } }))]);
