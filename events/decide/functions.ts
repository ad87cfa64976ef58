// decide for SQL functions: track_function (v1/v2) and untrack_function.
import { EngineError } from '../../src/core/errors.js';
import { qualifiedKey, quoteName as qt, type QualifiedName } from '../../src/core/names.js';
import { ev, type Event } from '../types.js';
import { type DecideContext } from './context.js';

export type FunctionCommand =
  | { op: 'track_function'; function: QualifiedName; configuration: { session_argument?: string } }
  | { op: 'untrack_function'; function: QualifiedName };

export function decideFunction(cmd: FunctionCommand, ctx: DecideContext): Event[] {
  const key = qualifiedKey(cmd.function);
  switch (cmd.op) {
    case 'track_function':
      if (ctx.metadata.functions[key]) {
        throw new EngineError('already-tracked', `function already tracked : ${qt(cmd.function)}`, { path: '$.args' });
      }
      if (ctx.metadata.tables[key]) {
        throw new EngineError('not-supported', `table with name ${qt(cmd.function)} already exists`, { path: '$.args' });
      }
      return [ev('function_tracked', { function: cmd.function, configuration: cmd.configuration })];
    case 'untrack_function':
      if (!ctx.metadata.functions[key]) {
        throw new EngineError('not-exists', `function not found in cache ${qt(cmd.function)}`, { path: '$.args' });
      }
      return [ev('function_untracked', { function: cmd.function })];
  }
}
