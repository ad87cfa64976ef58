// The original's `action-handler-log` line for one call of an action handler: {action_name, request_size,
// response_size}; ours adds the handler's HTTP status (or the http exception when there was no answer) and the
// call's duration in seconds (execution_time, as http-log's query_execution_time). The handler URL, the headers and
// the bodies are left out: URL and headers may come from environment variables that hold credentials. Only built
// when the type is enabled (--enabled-log-types action-handler-log).
import { log } from '../core/log.js';

const TYPE = 'action-handler-log';

export const wantsHandlerLog = (): boolean => log.wants(TYPE);

export interface HandlerCall {
  action: string;
  /** process.hrtime.bigint() before the request was sent. */
  started: bigint;
  requestSize: number;
  /** The answer, or the http exception's message. */
  answer: { status: number; size: number } | { error: string };
}

export function logHandlerCall(c: HandlerCall): void {
  const a = c.answer;
  log.info(TYPE, {
    action_name: c.action,
    request_size: c.requestSize,
    response_size: 'status' in a ? a.size : 0,
    ...('status' in a ? { status: a.status } : { error: a.error }),
    execution_time: Number(process.hrtime.bigint() - c.started) / 1e9,
  });
}
