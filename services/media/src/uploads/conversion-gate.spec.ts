import { AppError } from '@school/http';
import { ConversionGate } from './conversion-gate.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('ConversionGate (contract §9: 2 conversions at once, a bounded wait)', () => {
  it('runs at most `slots` works at once, the next in arrival order as slots free up', async () => {
    const gate = new ConversionGate(2, 60_000);
    const blockers = [deferred(), deferred(), deferred()];
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    const runs = blockers.map((blocker, index) =>
      gate.run(async () => {
        active += 1;
        peak = Math.max(peak, active);
        order.push(index);
        await blocker.promise;
        active -= 1;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([0, 1]);
    blockers[1]!.resolve();
    await runs[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([0, 1, 2]);
    blockers[0]!.resolve();
    blockers[2]!.resolve();
    await Promise.all(runs);
    expect(peak).toBe(2);
  });

  it('refuses a work that waited longer than maxWaitMs with 503 SERVICE_UNAVAILABLE and Retry-After, and frees its place', async () => {
    const gate = new ConversionGate(1, 0);
    const blocker = deferred();
    const first = gate.run(() => blocker.promise);
    const refused = await gate.run(async () => 'ran').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, headers: { 'retry-after': '5' } });
    blocker.resolve();
    await first;
    await expect(gate.run(async () => 'ran')).resolves.toBe('ran');
  });
});
