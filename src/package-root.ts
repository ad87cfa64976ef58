// The package's root folder (where package.json and console/ are). This module sits one folder below the root, and
// so does dist/engine.mjs, which bundles it: the same relative URL is right in both, so any file the engine reads
// from its own package is found from here, never from a module's own place (which a bundle does not keep).
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT: string = fileURLToPath(new URL('../', import.meta.url));
