import type { ServerResponse } from 'node:http';

/** The client closed the connection before its answer was written whole: nobody is left to answer. */
export class RequestAbandonedError extends Error {
  override readonly name = 'RequestAbandonedError';
  constructor() {
    super('the client closed the connection before its answer');
  }
}

/**
 * Aborts (with RequestAbandonedError) when `response` closes before it was written whole: the
 * client left, or the gateway gave up waiting. Work queued for the request can then leave its queue.
 */
export function abandonedSignal(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort(new RequestAbandonedError());
  });
  return controller.signal;
}
