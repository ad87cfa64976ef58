// The server version, from package.json (reported by /v1/version, the config API and `engine version`).
import { readFileSync } from 'node:fs';

export const ENGINE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
