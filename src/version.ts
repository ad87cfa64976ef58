// The server version, from package.json (reported by /v1/version, the config API and `engine version`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './package-root.js';

export const ENGINE_VERSION: string = (
  JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
