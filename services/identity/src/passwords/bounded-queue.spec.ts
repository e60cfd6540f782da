import { setImmediate as tick } from 'node:timers/promises';
import { BACKLOG_PER_CLIENT, BoundedQueue, PLACES_PER_CLIENT, QueueFullError } from './bounded-queue.js';

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

describe('BoundedQueue, fair to clients (contract §9)', () => {
  it('gives a client at most two places in the line: its burst waits in its own backlog while others still get in', async () => {
    const queue = new BoundedQueue(1, 3);
    const held = gate();
    const order: string[] = [];
    const job = (name: string) => () => held.opened.then(() => void order.push(name));
    const burst = ['a1', 'a2', 'a3', 'a4', 'a5'].map((name) => queue.run(job(name), '203.0.113.1'));
    expect(queue.load).toEqual({ running: 1, waiting: 2 });
    const other = queue.run(job('b1'), '203.0.113.2');
    expect(queue.load).toEqual({ running: 1, waiting: 3 });
    await expect(queue.run(async () => undefined, '203.0.113.3')).rejects.toBeInstanceOf(QueueFullError);
    held.open();
    await Promise.all([...burst, other]);
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3', 'a4', 'a5']);
  });

  it('refuses a client whose backlog is full, at once', async () => {
    const queue = new BoundedQueue(1, 10);
    const held = gate();
    const taken = Array.from({ length: 1 + PLACES_PER_CLIENT + BACKLOG_PER_CLIENT }, () => queue.run(() => held.opened, '203.0.113.1'));
    await expect(queue.run(async () => undefined, '203.0.113.1')).rejects.toBeInstanceOf(QueueFullError);
    held.open();
    await Promise.all(taken);
  });

  it('serves the waiting clients in turn, not in order of arrival', async () => {
    const queue = new BoundedQueue(1, 10, 3);
    const held = gate();
    const order: string[] = [];
    const blocker = queue.run(() => held.opened);
    const jobs = [
      ...['a1', 'a2', 'a3'].map((name) => queue.run(async () => void order.push(name), 'a')),
      ...['b1', 'b2'].map((name) => queue.run(async () => void order.push(name), 'b')),
      queue.run(async () => void order.push('c1'), 'c'),
    ];
    held.open();
    await Promise.all([blocker, ...jobs]);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });
});
