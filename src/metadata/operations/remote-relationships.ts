// Remote relationships: create, update (the definition replaced), delete. The stored relationship must come out
// consistent (checked against its remote schema by the schema cache: src/remote/relationships.ts).
import { z } from 'zod';
import { nonEmptyText, tableName } from '../../../events/argument-shapes.js';
import { decideRemoteRelationship, type RemoteRelationshipCommand } from '../../../events/decide/remote-relationships.js';
import { remoteRelationshipArgs } from '../../../events/remote-relationships.js';
import { remoteRelationshipId } from '../../remote/relationship-info.js';
import { command, object, type Cmd, type Operations } from './entry.js';

type Upsert = Cmd<RemoteRelationshipCommand, 'create_remote_relationship' | 'update_remote_relationship'>;
const upsert = (op: Upsert['op']) =>
  command({
    versions: { 1: remoteRelationshipArgs.transform((a): Upsert => ({ op, table: a.table, relationship: a.relationship })) },
    decide: decideRemoteRelationship,
    check: (c) => object(remoteRelationshipId(c.table, c.relationship.name)),
  });

export const REMOTE_RELATIONSHIP_OPERATIONS: Operations = {
  create_remote_relationship: upsert('create_remote_relationship'),
  update_remote_relationship: upsert('update_remote_relationship'),
  delete_remote_relationship: command({
    versions: {
      1: z
        .object({ table: tableName, name: nonEmptyText })
        .transform((a): Cmd<RemoteRelationshipCommand, 'delete_remote_relationship'> => ({ op: 'delete_remote_relationship', table: a.table, name: a.name })),
    },
    decide: decideRemoteRelationship,
  }),
};
