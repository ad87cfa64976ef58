// The fixture of the remote relationship tests: a remote GraphQL server on loopback (messages and users, as the
// original's test server) and an engine on a fresh database with a `profiles` table joined to it.
import { createTestDatabase } from '../helpers/db.js';
import { queryOk, startTestEngine, type TestEngine, type TestEngineOptions } from '../helpers/engine.js';
import { startRemote, type RemoteServer } from './server.js';

export const REMOTE_SDL = `
  type User { user_id: Int  userMessages(whered: MessageWhereInpObj, includes: IncludeInpObj): [Message]  gimmeText(text: String): String }
  type Message { id: Int!  name: String!  msg: String!  errorMsg: String }
  input MessageWhereInpObj { id: IntCompareObj  name: StringCompareObj }
  input IntCompareObj { eq: Int  gt: Int  lt: Int }
  input StringCompareObj { eq: String }
  input IncludeInpObj { id: [Int]  name: [String] }
  enum Occupation { SINGER COMEDIAN ARTIST }
  type Query {
    hello: String
    messages(where: MessageWhereInpObj, includes: IncludeInpObj): [Message]
    user(user_id: Int!): User
    users(user_ids: [Int]!): [User]
    message(id: Int!): Message
    getOccupation(name: String!): Occupation!
    slow: String
    echo(id: ID!): String
  }
`;

export const MESSAGES = [
  { id: 1, name: 'alice', msg: 'You win!' },
  { id: 2, name: 'bob', msg: 'You lose!' },
  { id: 3, name: 'alice', msg: 'Another alice' },
];

type Where = { id?: { eq?: number; gt?: number; lt?: number }; name?: { eq?: string } } | undefined;
const filter = (where: Where) => MESSAGES.filter((m) =>
  (where?.id?.eq === undefined || m.id === where.id.eq) && (where?.id?.gt === undefined || m.id > where.id.gt)
  && (where?.id?.lt === undefined || m.id < where.id.lt) && (where?.name?.eq === undefined || m.name === where.name.eq));
const message = (m: (typeof MESSAGES)[number]) => ({ ...m, errorMsg: () => { throw new Error('intentional-error'); } });

export const ROOT = {
  hello: () => 'world',
  messages: ({ where }: { where?: Where }) => filter(where).map(message),
  message: ({ id }: { id: number }) => {
    const m = MESSAGES.find((x) => x.id === id);
    return m ? message(m) : null;
  },
  user: ({ user_id }: { user_id: number }) => ({
    user_id,
    userMessages: ({ whered }: { whered?: Where }) => filter(whered).filter((m) => m.id === user_id).map(message),
    gimmeText: ({ text }: { text?: string }) => text ?? null,
  }),
  users: ({ user_ids }: { user_ids: number[] }) => user_ids.map((user_id) => ({ user_id, userMessages: () => MESSAGES.filter((m) => m.id === user_id) })),
  getOccupation: ({ name }: { name: string }) => (name === 'alice' ? 'SINGER' : 'ARTIST'),
  slow: () => new Promise((r) => setTimeout(() => r('late'), 3000)),
  echo: ({ id }: { id: string }) => id,
};

export interface Fixture {
  engine: TestEngine;
  remote: RemoteServer;
  close(): Promise<void>;
}

/** An engine with `profiles` (alice, bob, alice) tracked and the remote added as `my-remote`. */
export async function startFixture(options: TestEngineOptions = {}): Promise<Fixture> {
  const remote = await startRemote(REMOTE_SDL, ROOT);
  const engine = await startTestEngine({ database: await createTestDatabase('remote30'), ...options });
  await queryOk(engine, {
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: "create table profiles (id serial primary key, name text); insert into profiles (name) values ('alice'), ('bob'), ('alice');" } },
      { type: 'track_table', args: { schema: 'public', name: 'profiles' } },
      { type: 'add_remote_schema', args: { name: 'my-remote', definition: { url: remote.url } } },
    ],
  });
  return {
    engine,
    remote,
    async close() {
      await engine.close();
      await engine.db.drop();
      await remote.close();
    },
  };
}

export const basicRelationship = {
  name: 'messageBasic', table: 'profiles', engine_fields: ['id'], remote_schema: 'my-remote',
  remote_field: { message: { arguments: { id: '$id' } } },
};

export const nestedArgsRelationship = {
  name: 'messagesNestedArgs', table: 'profiles', engine_fields: ['id'], remote_schema: 'my-remote',
  remote_field: { messages: { arguments: { where: { id: { eq: '$id' } } } } },
};
