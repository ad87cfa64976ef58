// POSTs a GraphQL body to a remote schema's URL through the engine's HTTP client (src/core/http-client.ts). A failure
// is the original's 500 `unexpected` named after the HTTP client's exception (ResponseTimeout when timeout_seconds
// pass without an answer, ConnectionFailure with the network error's code).
import { EngineError } from '../core/errors.js';
import { HttpFailure, postJson } from '../core/http-client.js';

export interface RemoteReply {
  status: number;
  body: string;
  /** Set-Cookie values, passed on to HTTP clients. */
  setCookie: string[];
}

const failure = (message: string) => new EngineError('unexpected', message, { status: 500 });

function failureOf(f: HttpFailure): EngineError {
  if (f.kind === 'timeout') return failure('ResponseTimeout');
  // While the answer was read: the socket's message; before: its code when it has one.
  return failure(`ConnectionFailure ${f.partial ? f.detail : (f.code ?? f.detail)}`);
}

export async function postToRemote(url: string, headers: Record<string, string>, body: string, timeoutSeconds: number): Promise<RemoteReply> {
  try {
    const answer = await postJson(url, headers, body, { timeoutMs: timeoutSeconds * 1000 });
    return { status: answer.status, body: answer.body, setCookie: answer.setCookie };
  } catch (e) {
    throw e instanceof HttpFailure ? failureOf(e) : e;
  }
}
