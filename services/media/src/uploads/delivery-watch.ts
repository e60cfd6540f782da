import type { ServerResponse } from 'node:http';

/**
 * Contract §9: an upload not answered 200 stores nothing. Watches a response from the start of
 * the request: whatever was stored for it is undone when the response closes without a 200
 * delivered whole (an error answer, a client gone mid-way, a proxy that gave up waiting).
 */
export class DeliveryWatch {
  private closedUndelivered = false;
  private readonly undos: Array<() => Promise<void>> = [];
  private readonly abandonment = new AbortController();

  constructor(private readonly response: ServerResponse) {
    response.once('close', () => {
      if (response.writableFinished && response.statusCode === 200) return;
      this.closedUndelivered = true;
      this.abandonment.abort(new RequestAbandonedError());
      for (const undo of this.undos.splice(0)) void undo();
    });
  }

  /** Aborts when the response closes undelivered (the client gone): work still done for it can stop. */
  get abandoned(): AbortSignal {
    return this.abandonment.signal;
  }

  /** Runs `undo` unless this response ends as a delivered 200; at once when it is already abandoned. */
  undoUnlessDelivered(undo: () => Promise<void>): void {
    if (this.closedUndelivered) void undo();
    else this.undos.push(undo);
  }
}

/** The request's client is gone before its answer: nobody is left to answer. */
export class RequestAbandonedError extends Error {
  override readonly name = 'RequestAbandonedError';
  constructor() {
    super('the client closed the connection before its answer');
  }
}
