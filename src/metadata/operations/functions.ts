// SQL functions: track (v1: a name; v2: with a session argument), untrack.
import { z } from 'zod';
import { functionId } from '../../cache/objects.js';
import { functionName } from '../../../events/argument-shapes.js';
import { decideFunction, type FunctionCommand } from '../../../events/decide/functions.js';
import { command, object, type Cmd, type Operations } from './entry.js';

type TrackFunction = Cmd<FunctionCommand, 'track_function'>;
const check = (c: TrackFunction) => object(functionId(c.function));

export const FUNCTION_OPERATIONS: Operations = {
  track_function: command({
    versions: {
      1: functionName.transform((f): TrackFunction => ({ op: 'track_function', function: f, configuration: {} })),
      2: z
        .object({
          function: functionName,
          configuration: z.object({ session_argument: z.string().optional().nullable() }).optional().nullable(),
        })
        .transform((a): TrackFunction => {
          const s = a.configuration?.session_argument;
          return { op: 'track_function', function: a.function, configuration: s ? { session_argument: s } : {} };
        }),
    },
    decide: decideFunction,
    check,
  }),
  untrack_function: command({
    versions: { 1: functionName.transform((f): Cmd<FunctionCommand, 'untrack_function'> => ({ op: 'untrack_function', function: f })) },
    decide: decideFunction,
  }),
};
