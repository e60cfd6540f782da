import { jest } from '@jest/globals';
import { PeriodicTask } from './periodic-task.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('PeriodicTask', () => {
  afterEach(() => jest.useRealTimers());

  it('runs at start and then every interval', async () => {
    jest.useFakeTimers();
    let runs = 0;
    const task = new PeriodicTask(
      1_000,
      async () => (runs += 1),
      () => undefined,
    );
    task.start();
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(3_000);
    expect(runs).toBe(4);
    await task.stop();
    await jest.advanceTimersByTimeAsync(3_000);
    expect(runs).toBe(4);
  });

  it('never runs twice at once: a call during a run joins it', async () => {
    const gate = deferred();
    let runs = 0;
    const task = new PeriodicTask(
      60_000,
      async () => {
        runs += 1;
        await gate.promise;
      },
      () => undefined,
    );
    const first = task.runNow();
    const second = task.runNow();
    expect(second).toBe(first);
    gate.resolve();
    await first;
    expect(runs).toBe(1);
    await task.runNow();
    expect(runs).toBe(2);
  });

  it('hands a failed run to onError and runs again next time', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const task = new PeriodicTask(
      60_000,
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('database down');
      },
      (error) => errors.push(error),
    );
    await task.runNow();
    await task.runNow();
    expect(errors).toEqual([new Error('database down')]);
    expect(runs).toBe(2);
  });

  it('stop waits for the run in flight and refuses new ones', async () => {
    const gate = deferred();
    let finished = false;
    const task = new PeriodicTask(
      60_000,
      async () => {
        await gate.promise;
        finished = true;
      },
      () => undefined,
    );
    void task.runNow();
    const stopped = task.stop();
    gate.resolve();
    await stopped;
    expect(finished).toBe(true);
    finished = false;
    await task.runNow();
    expect(finished).toBe(false);
  });
});
