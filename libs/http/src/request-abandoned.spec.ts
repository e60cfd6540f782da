import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { abandonedSignal, RequestAbandonedError } from './request-abandoned.js';

const response = (writableFinished: boolean) => Object.assign(new EventEmitter(), { writableFinished });

describe('abandonedSignal', () => {
  it('aborts with RequestAbandonedError when the response closes before it was written whole', () => {
    const res = response(false);
    const signal = abandonedSignal(res as unknown as ServerResponse);
    expect(signal.aborted).toBe(false);
    res.emit('close');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(RequestAbandonedError);
  });

  it('stays quiet when the answer was written whole', () => {
    const res = response(true);
    const signal = abandonedSignal(res as unknown as ServerResponse);
    res.emit('close');
    expect(signal.aborted).toBe(false);
  });
});
