// Types of console/build.mjs for the TypeScript callers (the engine's lazy build, the browser tests).
export const DIST: string;
export interface BundleSizes { [file: string]: { bytes: number; gzip: number } }
export function buildConsole(options?: { minify?: boolean; quiet?: boolean }): Promise<BundleSizes>;
export function consoleBuilt(): Promise<boolean>;
