#!/usr/bin/env node
// The `engine` command: registers tsx (TypeScript without a build step) and runs src/cli/cli.ts.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/cli.ts');
await runCli();
