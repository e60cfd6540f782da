import type { ServerResponse } from 'node:http';
import { abandonedSignal } from '@school/http';

/**
 * Contract §9: an upload not answered 200 stores nothing. Watches a response from the start of
 * the request: whatever was stored for it is undone when the response closes without a 200
 * delivered whole (an error answer, a client gone mid-way, a proxy that gave up waiting).
 */
export class DeliveryWatch {
  private closedUndelivered = false;
  private readonly undos: Array<() => Promise<void>> = [];
  /** Aborts when the response closes before it was written whole (the client gone). */
  readonly abandoned: AbortSignal;

  constructor(private readonly response: ServerResponse) {
    this.abandoned = abandonedSignal(response);
    response.once('close', () => {
      if (response.writableFinished && response.statusCode === 200) return;
      this.closedUndelivered = true;
      for (const undo of this.undos.splice(0)) void undo();
    });
  }

  /** Runs `undo` unless this response ends as a delivered 200; at once when it is already abandoned. */
  undoUnlessDelivered(undo: () => Promise<void>): void {
    if (this.closedUndelivered) void undo();
    else this.undos.push(undo);
  }
}
