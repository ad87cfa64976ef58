// Lint encodes the architecture: imports flow one way (see ../shared/DESIGN.md and README "Layout").
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import noImportCycle from './lint/no-import-cycle.js';

// The folders of src/ and what each may import (besides itself). Everything else is a zone violation; a folder
// that is not listed here yet may be imported by nobody but main.ts, src/cli and http (give it a layer).
// No module registers itself into another's list at load time: features (actions, remote schemas) are composed in
// src/features.ts and passed down by the composition root, src/main.ts. A feature plugs into the executor through
// one module, src/execute/features.ts (`execute/features.ts` below): the executor never imports a feature, a feature
// never imports the executor's insides.
const LAYERS = {
  core: [],
  auth: ['core'],
  // Server settings (flags, environment) and how start-up reports them.
  config: ['core', 'auth'],
  catalog: ['core', 'sql'], // the SQL builder only (zone below)
  cache: ['core', 'catalog', 'events', 'projections'],
  ir: ['core', 'catalog', 'cache', 'events'],
  sql: ['core', 'catalog', 'cache', 'ir'],
  graphql: ['core', 'catalog', 'cache', 'ir', 'auth', 'events', 'projections'],
  execute: ['core', 'catalog', 'cache', 'ir', 'sql', 'auth', 'graphql', 'config'],
  actions: ['core', 'catalog', 'cache', 'ir', 'sql', 'auth', 'events', 'projections', 'graphql', 'execute/features.ts'],
  // Remote schemas: introspection, their part of the schema cache and role schemas (wired in by src/features.ts), forwarding.
  remote: ['core', 'catalog', 'cache', 'ir', 'sql', 'auth', 'events', 'projections', 'graphql', 'execute/features.ts'],
  sync: ['core', 'catalog', 'cache', 'events', 'projections'],
  // Event triggers' capture and delivery.
  triggers: ['core', 'catalog', 'cache', 'sql', 'events', 'projections'],
  // Scheduled triggers: cron triggers' catalog rows and generated events, one-off events, their delivery worker.
  scheduled: ['core', 'catalog', 'cache', 'events', 'projections', 'triggers'],
  // Websockets and the live-query pollers.
  subscriptions: ['core', 'catalog', 'cache', 'ir', 'sql', 'auth', 'graphql', 'execute', 'sync', 'config'],
  metadata: ['core', 'catalog', 'cache', 'ir', 'sql', 'actions', 'remote', 'triggers', 'scheduled', 'sync', 'events', 'projections'],
  // Read replicas: their pools, the health poll, the router the executor asks where a read runs.
  replicas: ['core', 'config', 'execute/features.ts'],
  // What start-up runs besides the wiring in main.ts: the embedded Postgres, the runtime's gauges, the workers' lifecycle.
  startup: ['core', 'config', 'cache', 'execute', 'sync', 'subscriptions'],
  // The project folder (the original CLI's metadata/ and migrations/): its commands talk HTTP; start-up applies
  // it through the metadata write path.
  project: ['core', 'events', 'projections', 'metadata', 'sync', 'cache'],
  http: [], // may import everything; nothing imports it
  cli: [], // may import everything; nothing imports it
};
const SRC = Object.keys(LAYERS);
const path = (name) => (name === 'events' || name === 'projections' ? `./${name}` : `./src/${name}`);
/** `room/file.ts` in a layer's list: only that file of the room (a plug), the rest of the room is forbidden. */
const plugs = (name) => LAYERS[name].filter((f) => f.includes('/')).map((f) => f.split('/'));
const forbidden = (name) =>
  [...SRC, 'events', 'projections']
    .filter((f) => f !== name && !LAYERS[name].includes(f) && !plugs(name).some(([room]) => room === f))
    .map(path);

const zone = (target, from, message, except) => ({ target, from, message, ...(except ? { except } : {}) });
const layerZones = Object.keys(LAYERS)
  .filter((name) => name !== 'http' && name !== 'cli')
  .flatMap((name) => [
    zone(`./src/${name}`, forbidden(name), `src/${name} may import only ${LAYERS[name].join(', ') || 'nothing'}`),
    ...plugs(name).map(([room, file]) =>
      zone(`./src/${name}`, path(room), `src/${name} may import only ${file} of src/${room}`, [`./${file}`])),
  ]);

export default [
  { ignores: ['node_modules/**', 'dist/**', '.engine-data/**', 'console/dist/**'] },
  {
    // The console's .tsx modules too: its pages import each other.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
    plugins: { import: importPlugin, engine: { rules: { 'no-import-cycle': noImportCycle } } },
    // The TypeScript resolver maps `./x.js` to `./x.ts`; without it no import resolves and the zones never bite.
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' }, node: { extensions: ['.ts', '.tsx', '.js'] } },
      'import/extensions': ['.ts', '.tsx', '.js'],
    },
    rules: {
      // Cycles of any kind, `import type` included (import/no-cycle does not see those): lint/no-import-cycle.js.
      'engine/no-import-cycle': 'error',
      // An import for its side effects is how a module used to register itself; features are passed down instead.
      // (The console's stylesheets are imported for the bundler, which is what such an import is for.)
      'import/no-unassigned-import': ['error', { allow: ['**/*.css'] }],
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            ...layerZones,
            zone('./src/catalog', './src/sql', 'catalog uses only the SQL builder of src/sql', ['./builder.ts']),
            zone('./events', ['./projections/**', './src/!(core|catalog)/**', './src/*.ts'], 'events sit on core and catalog'),
            zone('./projections', ['./src/!(core|catalog)/**', './src/*.ts'], 'projections sit on events'),
            zone('./src/!(http|cli)/**', ['./src/http/**', './src/cli/**', './src/+(main|features).ts'], 'nothing imports http, the CLI or the wiring'),
          ],
        },
      ],
    },
  },
];
