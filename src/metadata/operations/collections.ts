// Query collections (create, drop, add and drop a query) and the allow-list (add, drop a collection).
import { z } from 'zod';
import { parse as parseGraphql } from 'graphql';
import { comment, nonEmptyText } from '../../../events/argument-shapes.js';
import { decideCollection, type CollectionCommand } from '../../../events/decide/collections.js';
import { command, type Args, type Cmd, type Operations } from './entry.js';

const graphqlDocument = z.string().superRefine((q, ctx) => {
  try {
    parseGraphql(q);
  } catch (e) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: (e as Error).message });
  }
});
const collectionQuery = z.object({ name: nonEmptyText, query: graphqlDocument });

/** A collection command: decided against the metadata alone. */
const collection = (args: Args<CollectionCommand>) =>
  command({ versions: { 1: args }, decide: (c, ctx) => decideCollection(c, ctx.metadata) });

const allowlist = (op: Cmd<CollectionCommand, 'add_collection_to_allowlist' | 'drop_collection_from_allowlist'>['op']) =>
  collection(z.object({ collection: nonEmptyText }).transform((a): CollectionCommand => ({ op, collection: a.collection })));

export const COLLECTION_OPERATIONS: Operations = {
  create_query_collection: collection(
    z
      .object({
        name: nonEmptyText,
        definition: z.object({ queries: z.array(collectionQuery) }),
        comment,
      })
      .transform((a): Cmd<CollectionCommand, 'create_query_collection'> => ({
        op: 'create_query_collection',
        collection: { name: a.name, definition: a.definition, ...(a.comment != null ? { comment: a.comment } : {}) },
      })),
  ),
  drop_query_collection: collection(
    z
      .object({ collection: nonEmptyText, cascade: z.boolean() })
      .transform((a): Cmd<CollectionCommand, 'drop_query_collection'> => ({ op: 'drop_query_collection', name: a.collection, cascade: a.cascade })),
  ),
  add_query_to_collection: collection(
    z
      .object({ collection_name: nonEmptyText, query_name: nonEmptyText, query: graphqlDocument })
      .transform((a): Cmd<CollectionCommand, 'add_query_to_collection'> => ({
        op: 'add_query_to_collection',
        collection: a.collection_name,
        query: { name: a.query_name, query: a.query },
      })),
  ),
  drop_query_from_collection: collection(
    z
      .object({ collection_name: nonEmptyText, query_name: nonEmptyText })
      .transform((a): Cmd<CollectionCommand, 'drop_query_from_collection'> => ({
        op: 'drop_query_from_collection',
        collection: a.collection_name,
        query_name: a.query_name,
      })),
  ),
  add_collection_to_allowlist: allowlist('add_collection_to_allowlist'),
  drop_collection_from_allowlist: allowlist('drop_collection_from_allowlist'),
};
