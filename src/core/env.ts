// The process environment as the engine reads it (process.env, or a test's own): webhook and remote URLs from env
// variables, header values, {{VAR}} templates.
export type Env = Readonly<Record<string, string | undefined>>;
