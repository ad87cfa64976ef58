// Lint encodes the architecture: imports flow one way (see ../shared/DESIGN.md and README "Layout").
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';

// The folders of src/ and what each may import (besides itself). Everything else is a zone violation; a folder
// that is not listed here yet may be imported by nobody but main.ts, cli.ts and http (give it a layer).
// No module registers itself into another's list at load time: features (actions, remote schemas) are composed in
// src/features.ts and passed down by the composition root, src/main.ts.
const LAYERS = {
  core: [],
  catalog: ['core', 'sql'], // the SQL builder only (zone below)
  auth: ['core'],
  cache: ['core', 'catalog', 'events', 'projections'],
  ir: ['core', 'catalog', 'cache', 'events'],
  sql: ['core', 'catalog', 'cache', 'ir'],
  graphql: ['core', 'catalog', 'cache', 'ir', 'auth', 'events', 'projections'],
  actions: ['core', 'catalog', 'cache', 'ir', 'sql', 'auth', 'events', 'projections', 'graphql', 'execute'],
  // Remote schemas: introspection, their part of the schema cache and role schemas (wired in by src/features.ts), forwarding.
  remote: ['core', 'catalog', 'cache', 'ir', 'sql', 'auth', 'events', 'projections', 'graphql', 'execute'],
  execute: ['core', 'catalog', 'cache', 'ir', 'sql', 'auth', 'graphql', 'actions', 'remote', 'config'],
  sync: ['core', 'catalog', 'cache', 'events', 'projections', 'remote'],
  // Event triggers' capture and delivery, and the live-query pollers.
  triggers: ['core', 'catalog', 'cache', 'sql', 'events', 'projections'],
  // Scheduled triggers: cron triggers' catalog rows and generated events, one-off events, their delivery worker.
  scheduled: ['core', 'catalog', 'cache', 'events', 'projections', 'triggers'],
  subscriptions: ['core', 'catalog', 'cache', 'ir', 'sql', 'auth', 'graphql', 'execute', 'sync', 'config'],
  metadata: ['core', 'catalog', 'cache', 'ir', 'sql', 'execute', 'actions', 'remote', 'triggers', 'scheduled', 'sync', 'events', 'projections'],
  http: [], // may import everything; nothing imports it
};
const SRC = Object.keys(LAYERS);
const path = (name) =>
  name === 'events' || name === 'projections' ? `./${name}` : name === 'config' ? './src/config.ts' : `./src/${name}`;
const forbidden = (name) =>
  [...SRC, 'events', 'projections', 'config'].filter((f) => f !== name && !LAYERS[name].includes(f)).map(path);

const zone = (target, from, message, except) => ({ target, from, message, ...(except ? { except } : {}) });
const layerZones = Object.keys(LAYERS)
  .filter((name) => name !== 'http')
  .map((name) => zone(`./src/${name}`, forbidden(name), `src/${name} may import only ${LAYERS[name].join(', ') || 'nothing'}`));

export default [
  { ignores: ['node_modules/**', 'dist/**', '.engine-data/**', 'console/dist/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
    plugins: { import: importPlugin },
    // The TypeScript resolver maps `./x.js` to `./x.ts`; without it no import resolves and the zones never bite.
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' }, node: { extensions: ['.ts', '.js'] } },
      'import/extensions': ['.ts', '.js'],
    },
    rules: {
      'import/no-cycle': 'error',
      // An import for its side effects is how a module used to register itself; features are passed down instead.
      'import/no-unassigned-import': 'error',
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            ...layerZones,
            zone('./src/catalog', './src/sql', 'catalog uses only the SQL builder of src/sql', ['./builder.ts']),
            zone('./events', ['./projections/**', './src/!(core|catalog)/**', './src/*.ts'], 'events sit on core and catalog'),
            zone('./projections', ['./src/!(core|catalog)/**', './src/*.ts'], 'projections sit on events'),
            zone('./src/!(http)/**', ['./src/http/**', './src/+(main|cli|features).ts'], 'nothing imports http or the wiring'),
          ],
        },
      ],
    },
  },
];
