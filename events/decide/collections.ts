// decide for query collections and the allow-list: pure metadata, no Postgres objects involved.
import { EngineError } from '../../src/core/errors.js';
import { ev, type CollectionQuery, type Event, type Metadata, type QueryCollection } from '../types.js';
import { quote as q } from '../../src/core/names.js';

export type CollectionCommand =
  | { op: 'create_query_collection'; collection: QueryCollection }
  | { op: 'drop_query_collection'; name: string; cascade: boolean }
  | { op: 'add_query_to_collection'; collection: string; query: CollectionQuery }
  | { op: 'drop_query_from_collection'; collection: string; query_name: string }
  | { op: 'add_collection_to_allowlist'; collection: string }
  | { op: 'drop_collection_from_allowlist'; collection: string };

const inAllowlist = (m: Metadata, name: string): boolean => m.allowlist.some((a) => a.collection === name);

function existing(m: Metadata, name: string): QueryCollection {
  const c = m.query_collections.find((x) => x.name === name);
  if (!c) throw new EngineError('not-exists', `query collection with name ${q(name)} does not exists`, { path: '$.args' });
  return c;
}

export function decideCollection(cmd: CollectionCommand, m: Metadata): Event[] {
  switch (cmd.op) {
    case 'create_query_collection': {
      const name = cmd.collection.name;
      if (m.query_collections.some((x) => x.name === name)) {
        throw new EngineError('already-exists', `query collection with name ${q(name)} already exists`, { path: '$.args' });
      }
      const names = cmd.collection.definition.queries.map((x) => x.name);
      const dups = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
      if (dups.length) {
        throw new EngineError('not-supported', `found duplicate query names ${dups.map(q).join(', ')}`, { path: '$.args' });
      }
      return [ev('query_collection_created', { collection: cmd.collection })];
    }
    case 'drop_query_collection': {
      existing(m, cmd.name);
      const listed = inAllowlist(m, cmd.name);
      if (listed && !cmd.cascade) {
        throw new EngineError('dependency-error', `query collection with name ${q(cmd.name)} is present in allowlist; cannot proceed to drop`, { path: '$.args' });
      }
      return [...(listed ? [ev('allowlist_collection_dropped', { collection: cmd.name })] : []), ev('query_collection_dropped', { name: cmd.name })];
    }
    case 'add_query_to_collection': {
      const c = existing(m, cmd.collection);
      if (c.definition.queries.some((x) => x.name === cmd.query.name)) {
        throw new EngineError('already-exists', `query with name ${q(cmd.query.name)} already exists in collection ${q(cmd.collection)}`, { path: '$.args' });
      }
      return [ev('collection_query_added', { collection: cmd.collection, query: cmd.query })];
    }
    case 'drop_query_from_collection': {
      const c = existing(m, cmd.collection);
      if (!c.definition.queries.some((x) => x.name === cmd.query_name)) {
        throw new EngineError('not-found', `query with name ${q(cmd.query_name)} not found in collection ${q(cmd.collection)}`, { path: '$.args' });
      }
      return [ev('collection_query_dropped', { collection: cmd.collection, query_name: cmd.query_name })];
    }
    case 'add_collection_to_allowlist':
      existing(m, cmd.collection);
      // The original's catalog insert fails on a second add.
      if (inAllowlist(m, cmd.collection)) throw new EngineError('unexpected', 'database query error', { status: 500, path: '$.args' });
      return [ev('allowlist_collection_added', { collection: cmd.collection })];
    case 'drop_collection_from_allowlist':
      existing(m, cmd.collection);
      return inAllowlist(m, cmd.collection) ? [ev('allowlist_collection_dropped', { collection: cmd.collection })] : [];
  }
}
