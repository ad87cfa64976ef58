#!/usr/bin/env node
// The `engine` command: registers tsx (TypeScript without a build step) and runs src/cli.ts.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli.ts');
await runCli();
