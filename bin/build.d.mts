// Types of build.mjs for the TypeScript tests that import it.
export declare const DIST: string;
export declare const ENGINE_JS: string;
export declare const INPUTS_JSON: string;
export declare function buildEngine(options?: { quiet?: boolean }): Promise<{ bytes: number; files: number }>;
