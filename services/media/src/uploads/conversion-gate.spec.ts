import { AppError } from '@school/http';
import { ConversionGate, MIN_CONVERSION_PIXELS } from './conversion-gate.js';
import { MAX_STILL_PIXELS } from './image-budget.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const small = (account: string) => ({ account, pixels: MIN_CONVERSION_PIXELS });
const maximal = (account: string) => ({ account, pixels: MAX_STILL_PIXELS - 1 });

describe('ConversionGate (contract §9: 2 conversions at once, a bounded wait, fair per account)', () => {
  it('runs at most `slots` conversions at once, the next as slots free up', async () => {
    const gate = new ConversionGate(2, 60_000);
    const blockers = [deferred(), deferred(), deferred()];
    const order: number[] = [];
    const runs = blockers.map((blocker, index) => gate.run(async () => (order.push(index), blocker.promise), small(`account-${index}`)));
    await tick();
    expect(order).toEqual([0, 1]);
    blockers[1]!.resolve();
    await runs[1];
    await tick();
    expect(order).toEqual([0, 1, 2]);
    blockers[0]!.resolve();
    blockers[2]!.resolve();
    await Promise.all(runs);
  });

  it('refuses a conversion that waited longer than maxWaitMs with 503 SERVICE_UNAVAILABLE and Retry-After, and frees its place', async () => {
    const gate = new ConversionGate(1, 0);
    const blocker = deferred();
    const first = gate.run(() => blocker.promise, small('a'));
    const refused = await gate.run(async () => 'ran', small('b')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, headers: { 'retry-after': '5' } });
    blocker.resolve();
    await first;
    await expect(gate.run(async () => 'ran', small('b'))).resolves.toBe('ran');
  });

  it("runs one conversion at a time per account, and serves another account's small image before a third maximal one", async () => {
    const gate = new ConversionGate(2, 60_000, 2 * MAX_STILL_PIXELS);
    const blockers = [deferred(), deferred()];
    const started: string[] = [];
    const runs = [
      gate.run(async () => (started.push('a1'), blockers[0]!.promise), maximal('a')),
      gate.run(async () => void started.push('a2'), maximal('a')),
      gate.run(async () => (started.push('b1'), blockers[1]!.promise), maximal('b')),
      gate.run(async () => void started.push('c1'), maximal('c')),
      gate.run(async () => void started.push('d1'), small('d')),
    ];
    await tick();
    expect(started).toEqual(['a1', 'b1']);
    blockers[1]!.resolve();
    await runs[2];
    await tick();
    // d's small image is due first: a turn is weighted by the pixels it decodes.
    expect(started.slice(0, 3)).toEqual(['a1', 'b1', 'd1']);
    blockers[0]!.resolve();
    await Promise.all(runs);
    expect(started.sort()).toEqual(['a1', 'a2', 'b1', 'c1', 'd1']);
  });

  it('by default never decodes two maximal images at once: the second slot converts the small images of others', async () => {
    const gate = new ConversionGate(2, 60_000);
    const blocker = deferred();
    const started: string[] = [];
    const runs = [
      gate.run(async () => (started.push('a1'), blocker.promise), maximal('a')),
      gate.run(async () => void started.push('b1'), maximal('b')),
      gate.run(async () => void started.push('c1'), small('c')),
    ];
    await runs[2];
    expect(started).toEqual(['a1', 'c1']);
    blocker.resolve();
    await Promise.all(runs);
    expect(started).toEqual(['a1', 'c1', 'b1']);
  });

  it('bounds the pixels decoded at once: an animation of 100 MP runs alone', async () => {
    const gate = new ConversionGate(2, 60_000);
    const blocker = deferred();
    const started: string[] = [];
    const animation = gate.run(async () => (started.push('animation'), blocker.promise), { account: 'a', pixels: 100_000_000 });
    const other = gate.run(async () => void started.push('other'), small('b'));
    await tick();
    expect(started).toEqual(['animation']);
    blocker.resolve();
    await Promise.all([animation, other]);
    expect(started).toEqual(['animation', 'other']);
  });

  it('takes a waiting conversion out of the line when its request is gone, and tells a running one to stop', async () => {
    const gate = new ConversionGate(1, 60_000);
    const running = new AbortController();
    const waiting = new AbortController();
    let stopSeen: AbortSignal | undefined;
    const first = gate.run((stop) => new Promise<void>((_, reject) => ((stopSeen = stop), stop.addEventListener('abort', () => reject(stop.reason as Error)))), {
      ...small('a'),
      signal: running.signal,
    });
    let ran = false;
    const second = gate.run(async () => void (ran = true), { ...small('b'), signal: waiting.signal });
    await tick();
    waiting.abort(new Error('gone'));
    // Nobody reads the answer; 503 keeps it out of the error log.
    await expect(second).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    running.abort(new Error('gone too'));
    expect(stopSeen?.aborted).toBe(true);
    await expect(first).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(ran).toBe(false);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });
});
