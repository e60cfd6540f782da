import { setImmediate as tick } from 'node:timers/promises';
import { BACKLOG_PER_CLIENT, FairScheduler, PLACES_PER_CLIENT, QueueFullError, QueueWaitTimeoutError } from './fair-scheduler.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('FairScheduler, bounded', () => {
  it('runs `concurrency` jobs, lets `maxWaiting` wait, and refuses the rest at once', async () => {
    const queue = new FairScheduler({ concurrency: 2, maxWaiting: 3 });
    const held = gate();
    const accepted = Array.from({ length: 5 }, (_, index) => queue.run(async () => (await held.opened, index)));
    await expect(queue.run(async () => 'never')).rejects.toBeInstanceOf(QueueFullError);
    await tick();
    expect(queue.load).toEqual({ running: 2, waiting: 3, backlogged: 0 });
    held.open();
    expect(await Promise.all(accepted)).toEqual([0, 1, 2, 3, 4]);
    expect(queue.load).toEqual({ running: 0, waiting: 0, backlogged: 0 });
    expect(await queue.run(async () => 'room again')).toBe('room again');
  });

  it('starts a job at once when a slot is free, even with no waiting room, and counts a failure out like a success', async () => {
    const queue = new FairScheduler({ concurrency: 1, maxWaiting: 0 });
    await expect(queue.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const held = gate();
    const running = queue.run(() => held.opened);
    await expect(queue.run(async () => undefined)).rejects.toBeInstanceOf(QueueFullError);
    held.open();
    await running;
    expect(await queue.run(async () => 'next')).toBe('next');
  });

  it('refuses a job that waited longer than maxWaitMs (QueueWaitTimeoutError) and frees its place', async () => {
    const queue = new FairScheduler({ concurrency: 1, maxWaiting: 5, maxWaitMs: 10 });
    const held = gate();
    const running = queue.run(() => held.opened);
    let ran = false;
    await expect(queue.run(async () => void (ran = true))).rejects.toBeInstanceOf(QueueWaitTimeoutError);
    expect(queue.load).toEqual({ running: 1, waiting: 0, backlogged: 0 });
    held.open();
    await running;
    expect(ran).toBe(false);
  });

  it('bounds the cost running at once: a costly job waits for room while a cheap one fits beside', async () => {
    const queue = new FairScheduler({ concurrency: 3, capacity: 10, maxWaiting: 10 });
    const held = [gate(), gate()];
    const started: string[] = [];
    const job = (name: string, until: Promise<void>) => async () => {
      started.push(name);
      await until;
    };
    const first = queue.run(job('small', held[0]!.opened), { client: 'a', cost: 4 });
    const big = queue.run(job('big', held[1]!.opened), { client: 'b', cost: 8 });
    const cheap = queue.run(job('cheap', Promise.resolve()), { client: 'c', cost: 1 });
    await tick();
    // 4 + 8 > 10: the big one waits; 4 + 1 fits.
    expect(started).toEqual(['small', 'cheap']);
    held[0]!.open();
    await first;
    await tick();
    expect(started).toEqual(['small', 'cheap', 'big']);
    held[1]!.open();
    await Promise.all([big, cheap]);
  });

  it('runs a job costlier than the whole capacity alone', async () => {
    const queue = new FairScheduler({ concurrency: 2, capacity: 10, maxWaiting: 10 });
    expect(await queue.run(async () => 'alone', { cost: 25 })).toBe('alone');
  });
});

describe('FairScheduler, fair to clients', () => {
  it('gives a client at most two places in the line: its burst waits in its own backlog while others still get in', async () => {
    const queue = new FairScheduler({ concurrency: 1, maxWaiting: 3 });
    const held = gate();
    const order: string[] = [];
    const job = (name: string) => () => held.opened.then(() => void order.push(name));
    const burst = ['a1', 'a2', 'a3', 'a4', 'a5'].map((name) => queue.run(job(name), { client: 'a' }));
    expect(queue.load).toEqual({ running: 1, waiting: PLACES_PER_CLIENT, backlogged: 2 });
    const other = queue.run(job('b1'), { client: 'b' });
    expect(queue.load).toEqual({ running: 1, waiting: 3, backlogged: 2 });
    held.open();
    await Promise.all([...burst, other]);
    // b's first job is due before a's second: turns, not arrival.
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('when the line is full, a newcomer takes a place from the client holding most, whose job waits in its backlog', async () => {
    const queue = new FairScheduler({ concurrency: 1, maxWaiting: 3 });
    const held = gate();
    const order: string[] = [];
    const job = (name: string) => () => held.opened.then(() => void order.push(name));
    const jobs = [queue.run(job('a1'), { client: 'a' }), queue.run(job('a2'), { client: 'a' }), queue.run(job('a3'), { client: 'a' }), queue.run(job('b1'), { client: 'b' })];
    expect(queue.load).toEqual({ running: 1, waiting: 3, backlogged: 0 });
    jobs.push(queue.run(job('c1'), { client: 'c' }));
    expect(queue.load).toEqual({ running: 1, waiting: 3, backlogged: 1 });
    // Every client holds one place now: a fourth one holding none still gets in, a holder of one waits in its backlog.
    jobs.push(queue.run(job('d1'), { client: 'd' }));
    jobs.push(queue.run(job('b2'), { client: 'b' }));
    expect(queue.load).toEqual({ running: 1, waiting: 3, backlogged: 3 });
    held.open();
    await Promise.all(jobs);
    expect(order.slice(0, 4).sort()).toEqual(['a1', 'b1', 'c1', 'd1']);
    expect(order.slice(4).sort()).toEqual(['a2', 'a3', 'b2']);
  });

  it('refuses a client whose backlog is full, at once', async () => {
    const queue = new FairScheduler({ concurrency: 1, maxWaiting: 10 });
    const held = gate();
    const taken = Array.from({ length: 1 + PLACES_PER_CLIENT + BACKLOG_PER_CLIENT }, () => queue.run(() => held.opened, { client: 'a' }));
    await expect(queue.run(async () => undefined, { client: 'a' })).rejects.toBeInstanceOf(QueueFullError);
    held.open();
    await Promise.all(taken);
  });

  it('runs at most `runningPerClient` jobs of one client at once, serving the others meanwhile', async () => {
    const queue = new FairScheduler({ concurrency: 2, maxWaiting: 10, runningPerClient: 1 });
    const held = gate();
    const started: string[] = [];
    const job = (name: string) => () => (started.push(name), held.opened);
    const jobs = [queue.run(job('a1'), { client: 'a' }), queue.run(job('a2'), { client: 'a' }), queue.run(job('b1'), { client: 'b' })];
    await tick();
    expect(started).toEqual(['a1', 'b1']);
    held.open();
    await Promise.all(jobs);
    expect(started).toEqual(['a1', 'b1', 'a2']);
  });

  it('serves a newcomer before the clients whose turn has come as often as its own, not after a whole round of them', async () => {
    const queue = new FairScheduler({ concurrency: 1, maxWaiting: 40 });
    const held = gate();
    const order: string[] = [];
    const job = (name: string) => async () => void order.push(name);
    const jobs = [queue.run(() => held.opened, { client: 'first' })];
    let fresh: Promise<void> | undefined;
    // Ten clients, two jobs each: after their first round, their second jobs share one tag.
    for (const client of 'abcdefghij') {
      jobs.push(queue.run(job(`${client}1`), { client }));
      jobs.push(
        queue.run(
          async () => {
            order.push(`${client}2`);
            // The newcomer arrives as the second round begins.
            if (client === 'a') fresh = queue.run(job('fresh'), { client: 'fresh' });
          },
          { client },
        ),
      );
    }
    held.open();
    await Promise.all(jobs);
    await fresh;
    expect(order.slice(10, 12)).toEqual(['a2', 'fresh']);
  });

  it('does not take a client that was served and comes straight back for a newcomer', async () => {
    const queue = new FairScheduler({ concurrency: 1, maxWaiting: 10 });
    await queue.run(async () => undefined, { client: 'back' });
    const held = gate();
    const order: string[] = [];
    const blocker = queue.run(() => held.opened, { client: 'first' });
    const jobs = [queue.run(async () => void order.push('back'), { client: 'back' }), queue.run(async () => void order.push('fresh'), { client: 'fresh' })];
    held.open();
    await Promise.all([blocker, ...jobs]);
    expect(order).toEqual(['fresh', 'back']);
  });

  it('weights turns by cost: a client of costly jobs is served less often than one of cheap jobs', async () => {
    const queue = new FairScheduler({ concurrency: 1, maxWaiting: 20, placesPerClient: 10 });
    const held = gate();
    const order: string[] = [];
    const blocker = queue.run(() => held.opened);
    const jobs = [
      ...['big1', 'big2'].map((name) => queue.run(async () => void order.push(name), { client: 'big', cost: 4 })),
      ...['s1', 's2', 's3', 's4', 's5'].map((name) => queue.run(async () => void order.push(name), { client: 'small', cost: 1 })),
    ];
    held.open();
    await Promise.all([blocker, ...jobs]);
    expect(order).toEqual(['s1', 's2', 's3', 'big1', 's4', 's5', 'big2']);
  });
});

describe('FairScheduler, cancelled', () => {
  it("takes a waiting job out of the line when its caller's signal aborts: it never runs, and the next one gets its turn", async () => {
    const queue = new FairScheduler({ concurrency: 1, maxWaiting: 5 });
    const held = gate();
    const running = queue.run(() => held.opened, { client: 'a' });
    const caller = new AbortController();
    let ran = false;
    const abandoned = queue.run(async () => void (ran = true), { client: 'b', signal: caller.signal });
    const next = queue.run(async () => 'next', { client: 'c' });
    caller.abort(new Error('client gone'));
    await expect(abandoned).rejects.toThrow('client gone');
    expect(queue.load).toEqual({ running: 1, waiting: 1, backlogged: 0 });
    held.open();
    await running;
    expect(await next).toBe('next');
    expect(ran).toBe(false);
  });

  it('refuses a job whose signal is already aborted', async () => {
    const queue = new FairScheduler({ concurrency: 1, maxWaiting: 5 });
    await expect(queue.run(async () => 'ran', { signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
  });

  it('aborts the signal a running job was given, and holds its slot until the job has stopped', async () => {
    const queue = new FairScheduler({ concurrency: 1, maxWaiting: 5 });
    const caller = new AbortController();
    const stopped = gate();
    let seen: AbortSignal | undefined;
    const running = queue.run(
      (signal) =>
        new Promise<void>((_, reject) => {
          seen = signal;
          signal.addEventListener('abort', () => void stopped.opened.then(() => reject(signal.reason as Error)));
        }),
      { client: 'a', signal: caller.signal },
    );
    let nextStarted = false;
    const next = queue.run(async () => void (nextStarted = true), { client: 'b' });
    await tick();
    caller.abort(new Error('client gone'));
    expect(seen?.aborted).toBe(true);
    await tick();
    expect(nextStarted).toBe(false);
    stopped.open();
    await expect(running).rejects.toThrow('client gone');
    await next;
    expect(nextStarted).toBe(true);
  });
});
