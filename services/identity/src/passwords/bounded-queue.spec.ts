import { setImmediate as tick } from 'node:timers/promises';
import { BoundedQueue, QueueFullError } from './bounded-queue.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('BoundedQueue', () => {
  it('runs `concurrency` jobs, lets `maxWaiting` wait, and refuses the rest at once', async () => {
    const queue = new BoundedQueue(2, 3);
    const held = gate();
    const accepted = Array.from({ length: 5 }, (_, index) => queue.run(async () => (await held.opened, index)));
    const refused = queue.run(async () => 'never');
    await expect(refused).rejects.toBeInstanceOf(QueueFullError);
    await tick();
    expect(queue.load).toEqual({ running: 2, waiting: 3 });

    held.open();
    expect(await Promise.all(accepted)).toEqual([0, 1, 2, 3, 4]);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
    expect(await queue.run(async () => 'room again')).toBe('room again');
  });

  it('counts a failed job out like a finished one', async () => {
    const queue = new BoundedQueue(1, 0);
    await expect(queue.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queue.run(async () => 'next')).toBe('next');
  });

  it('with no waiting room, refuses whatever finds every slot busy', async () => {
    const queue = new BoundedQueue(1, 0);
    const held = gate();
    const running = queue.run(() => held.opened);
    await expect(queue.run(async () => undefined)).rejects.toBeInstanceOf(QueueFullError);
    held.open();
    await running;
  });
});
