// The remote GraphQL service of bench/remote.ts: graphql-js over node:http (keep-alive), on any path.
// usage: node --import tsx bench/remote-server.ts PORT
import http from 'node:http';
import { buildSchema, graphql } from 'graphql';

const schema = buildSchema('type Query { hello(arg: String = "world"): String, slow(ms: Int!): String }');
const rootValue = {
  hello: ({ arg }: { arg: string }) => `Hello ${arg}`,
  slow: ({ ms }: { ms: number }) => new Promise((r) => setTimeout(() => r(`slept ${ms}`), ms)),
};

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string; variables?: Record<string, unknown> };
    void graphql({ schema, source: body.query, rootValue, variableValues: body.variables }).then((result) => {
      const text = JSON.stringify(result);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('ready\n'));
