// lint/no-import-cycle.js: the import cycle rule of `eslint .`, run on small module sets written to a temporary folder
// (the rule reads the other modules from disk, as it does in the repository).
import test from 'ava';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import noImportCycle from '../../lint/no-import-cycle.js';

/** Writes the modules, lints `target` with the rule alone; the messages' texts. */
function lint(files: Record<string, string>, target: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'no-import-cycle-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    const linter = new Linter({ configType: 'flat', cwd: dir });
    const messages = linter.verify(files[target], [{
      files: ['**/*.ts', '**/*.tsx'],
      languageOptions: { parser: tseslint.parser as Linter.Parser },
      plugins: { engine: { rules: { 'no-import-cycle': noImportCycle } } },
      rules: { 'engine/no-import-cycle': 'error' },
    }], { filename: path.join(dir, target) });
    return messages.map((m) => m.message);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a cycle made only of type imports is reported, with the way round', (t) => {
  const files = {
    'a.ts': "import type { B } from './b.js';\nexport interface A { b: B }\n",
    'b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
  };
  t.deepEqual(lint(files, 'a.ts'), ['Import cycle (type imports count): a.ts -> b.ts -> a.ts']);
});

test('an inline import() type and a re-export close a cycle too', (t) => {
  const files = {
    'types.ts': "export type E = { trigger: import('./decide/triggers.js').Conf };\n",
    'decide/triggers.ts': "export * from './common.js';\nexport interface Conf { name: string }\n",
    'decide/common.ts': "import type { E } from '../types.js';\nexport const ev = (e: E): E => e;\n",
  };
  t.deepEqual(lint(files, 'types.ts'), ['Import cycle (type imports count): types.ts -> decide/triggers.ts -> decide/common.ts -> types.ts']);
});

test('runtime cycles between extensionless .tsx modules (the console) are reported', (t) => {
  const files = {
    'data.tsx': "import { BrowseTable } from './browse';\nexport const Suggestions = () => BrowseTable;\n",
    'browse.tsx': "import { Suggestions } from './data';\nexport const BrowseTable = () => Suggestions;\n",
  };
  t.is(lint(files, 'browse.tsx').length, 1);
});

test('imports that go one way are not reported', (t) => {
  const files = {
    'a.ts': "import type { B } from './b.js';\nimport { c } from './c.js';\nexport type A = B & { c: typeof c };\n",
    'b.ts': "import { c } from './c.js';\nexport interface B { c: typeof c }\n",
    'c.ts': "import pg from 'pg';\nexport const c = pg;\n",
  };
  t.deepEqual(lint(files, 'a.ts'), []);
});
