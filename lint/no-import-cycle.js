// An import cycle is an import cycle whether or not it survives compilation: `import type`, `import('./x.js').T` and
// re-exports count as much as runtime imports (import/no-cycle skips type imports, so two modules could name each
// other's types and stay tangled). The rule reads every module's imports with TypeScript's own scanner, follows the
// relative ones inside the repository, and reports each import of the linted file from which the file is reached
// again, with the way back.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** A file's relative import specifiers, cached by modification time (one lint run reads each file once). */
const scanned = new Map();

function importsOf(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const hit = scanned.get(file);
  if (hit && hit.mtimeMs === stat.mtimeMs) return hit.targets;
  const text = fs.readFileSync(file, 'utf8');
  const targets = [];
  for (const f of ts.preProcessFile(text, true, true).importedFiles) {
    const target = resolveSpecifier(file, f.fileName);
    if (target !== null) targets.push(target);
  }
  scanned.set(file, { mtimeMs: stat.mtimeMs, targets });
  return targets;
}

const isFile = (p) => {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
};

/** The repository file a relative specifier names (`./x.js` is `./x.ts` under NodeNext; the console omits extensions). */
function resolveSpecifier(from, spec) {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return null;
  const base = path.resolve(path.dirname(from), spec);
  const candidates = /\.[cm]?js$/.test(base)
    ? [base.replace(/\.([cm]?)js$/, '.$1ts'), base.replace(/\.js$/, '.tsx'), base]
    : [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  const found = candidates.find(isFile);
  return found === undefined || found.includes(`${path.sep}node_modules${path.sep}`) ? null : found;
}

/** The shortest way from `start` back to `goal` (a list of files ending with goal), or null. */
function wayBack(start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const file = queue.shift();
    if (file === goal) {
      const way = [];
      for (let f = file; f !== null; f = previous.get(f)) way.unshift(f);
      return way;
    }
    for (const next of importsOf(file)) {
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

/** The specifier node of an import-like AST node, or null. */
function sourceOf(node) {
  switch (node.type) {
    case 'ImportDeclaration':
    case 'ExportAllDeclaration':
      return node.source;
    case 'ExportNamedDeclaration':
      return node.source ?? null;
    case 'ImportExpression':
      return node.source.type === 'Literal' ? node.source : null;
    case 'TSImportType': {
      // typescript-eslint 8 names it `source` (`argument`, a TSLiteralType, before).
      const arg = 'source' in node ? node.source : node.argument;
      return arg?.type === 'TSLiteralType' ? arg.literal : arg?.type === 'Literal' ? arg : null;
    }
    case 'TSImportEqualsDeclaration':
      return node.moduleReference?.type === 'TSExternalModuleReference' ? node.moduleReference.expression : null;
    default:
      return null;
  }
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'forbid import cycles, type-only imports included' },
    schema: [],
    messages: { cycle: 'Import cycle (type imports count): {{way}}' },
  },
  create(context) {
    const file = path.resolve(context.filename);
    const root = context.cwd;
    const check = (node) => {
      const source = sourceOf(node);
      if (source === null || typeof source.value !== 'string') return;
      const target = resolveSpecifier(file, source.value);
      if (target === null) return;
      const way = wayBack(target, file);
      if (way === null) return;
      context.report({ node: source, messageId: 'cycle', data: { way: [file, ...way].map((f) => path.relative(root, f)).join(' -> ') } });
    };
    return {
      ImportDeclaration: check,
      ExportAllDeclaration: check,
      ExportNamedDeclaration: check,
      ImportExpression: check,
      TSImportType: check,
      TSImportEqualsDeclaration: check,
    };
  },
};
