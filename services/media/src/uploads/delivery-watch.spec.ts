import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { DeliveryWatch } from './delivery-watch.js';

/** What DeliveryWatch reads of a response: its close event, whether it was written whole, its status. */
function response(): EventEmitter & { writableFinished: boolean; statusCode: number } {
  return Object.assign(new EventEmitter(), { writableFinished: false, statusCode: 200 });
}

function watch(res: ReturnType<typeof response>) {
  const watcher = new DeliveryWatch(res as unknown as ServerResponse);
  const undone: string[] = [];
  const undo = (name: string) => watcher.undoUnlessDelivered(async () => void undone.push(name));
  return { undone, undo };
}

describe('DeliveryWatch (contract §9: an upload not answered 200 stores nothing)', () => {
  it('keeps what was stored when a 200 is written whole', () => {
    const res = response();
    const { undone, undo } = watch(res);
    undo('a');
    Object.assign(res, { writableFinished: true });
    res.emit('close');
    expect(undone).toEqual([]);
  });

  it('undoes it when the answer is not a 200, or the connection closed before it was written whole', () => {
    for (const [statusCode, writableFinished] of [
      [503, true],
      [200, false],
    ] as const) {
      const res = response();
      const { undone, undo } = watch(res);
      undo('a');
      Object.assign(res, { statusCode, writableFinished });
      res.emit('close');
      expect(undone).toEqual(['a']);
    }
  });

  it('undoes at once what is stored after the client already left', () => {
    const res = response();
    const { undone, undo } = watch(res);
    res.emit('close');
    undo('late');
    expect(undone).toEqual(['late']);
  });
});
