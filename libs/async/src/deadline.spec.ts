import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { answersWithin, DeadlineExceededError, withDeadline } from './deadline.js';

describe('withDeadline', () => {
  it('settles as the work does when it is in time', async () => {
    await expect(withDeadline(Promise.resolve(7), 50, 'work')).resolves.toBe(7);
    await expect(withDeadline(() => Promise.reject(new Error('own failure')), 50, 'work')).rejects.toThrow('own failure');
  });

  it('rejects with DeadlineExceededError naming the work when it is late', async () => {
    // Settled only after the deadline has passed, however long the process is not scheduled (a work
    // of 200 ms lost to the deadline's own rule when a busy machine stalled the process that long).
    let settle!: (value: string) => void;
    const late = withDeadline(new Promise<string>((resolve) => (settle = resolve)), 20, 'Redis');
    await expect(late).rejects.toBeInstanceOf(DeadlineExceededError);
    await expect(late).rejects.toThrow('Redis did not answer within 20 ms');
    settle('late');
  });

  it('takes an answer that arrived in time while the event loop was blocked past the deadline', async () => {
    // The answer reaches the socket as the deadline starts, then the process is not scheduled for
    // 300 ms (a busy machine, a long synchronous task): when it runs again the answer is waiting
    // and the timer is due. Both happen in one synchronous block, so however slow the machine, the
    // answer is in time and the stall is past the deadline.
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const [[accepted]] = (await Promise.all([once(server, 'connection'), once(client, 'connect')])) as [[Socket], unknown];
    accepted.on('error', () => undefined);
    try {
      const answer = withDeadline(() => new Promise((resolve) => client.once('data', () => resolve('answer'))), 50, 'echo');
      accepted.write('pong');
      const until = Date.now() + 300;
      while (Date.now() < until);
      await expect(answer).resolves.toBe('answer');
    } finally {
      client.destroy();
      server.close();
    }
  });

  it('leaves no timer behind', async () => {
    const before = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    await withDeadline(Promise.resolve(), 60_000, 'quick');
    expect(process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length).toBe(before);
  });
});

describe('answersWithin', () => {
  it('is true for a check in time, false for a late or failing one', async () => {
    expect(await answersWithin(() => Promise.resolve(), 50)).toBe(true);
    expect(await answersWithin(() => new Promise(() => undefined), 20)).toBe(false);
    expect(await answersWithin(() => Promise.reject(new Error('down')), 50)).toBe(false);
  });
});
