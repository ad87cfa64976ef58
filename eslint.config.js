// Lint encodes the architecture: imports flow one way (see ../shared/DESIGN.md and README "Layout").
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';

const zone = (target, from, message) => ({ target, from, message });

export default [
  { ignores: ['node_modules/**', 'dist/**', '.engine-data/**', 'console/dist/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.js'] } }, 'import/extensions': ['.ts', '.js'] },
    rules: {
      'import/no-cycle': 'off',
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            zone('./src/core', ['./src/!(core)/**', './events/**', './projections/**'], 'core imports nothing else'),
            zone('./src/catalog', ['./src/!(core|catalog)/**', './events/**', './projections/**'], 'catalog sits on core only'),
            zone('./events', ['./projections/**', './src/!(core|catalog)/**'], 'events sit on core and catalog'),
            zone('./projections', ['./src/!(core|catalog)/**'], 'projections sit on events'),
            zone('./src/cache', ['./src/!(core|catalog|cache)/**'], 'cache sits on projections'),
            zone('./src/sql', ['./src/graphql', './src/http', './src/auth', './src/execute', './src/metadata'], 'sql never imports graphql'),
            zone('./src/ir', ['./src/graphql', './src/http', './src/sql', './src/execute'], 'ir is plain data'),
            zone('./src/!(http|main.ts|cli.ts)/**', ['./src/http'], 'nothing imports http'),
            zone('./events', ['./src/http'], 'nothing imports http'),
            zone('./projections', ['./src/http'], 'nothing imports http'),
          ],
        },
      ],
    },
  },
];
