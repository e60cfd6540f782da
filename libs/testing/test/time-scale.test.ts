import { describe, expect, it } from '@jest/globals';
import { availableParallelism } from 'node:os';
import ScaledTimeoutsEnvironment from '../jest/environment.js';
import { expectOwnLoad } from '../jest/time-scale.js';
import { scaled, timeScale } from '../src/index.js';

type Added = { timeout: number | undefined };
type Block = { children: Added[]; hooks: Added[] };
type State = { currentDescribeBlock?: Block; testTimeout?: number };
const handle = (event: { name: string; timeout?: number }, state: State) =>
  (ScaledTimeoutsEnvironment.prototype as unknown as { handleTestEvent(event: unknown, state: unknown): unknown }).handleTestEvent.call(
    { __proto__: ScaledTimeoutsEnvironment.prototype },
    event,
    state,
  );

describe('the test time scale', () => {
  it('is at least 1 and stretches a bound by it', () => {
    expect(timeScale()).toBeGreaterThanOrEqual(1);
    expect(scaled(1_000)).toBe(Math.ceil(1_000 * timeScale()));
  });

  it('for a run that loads the machine itself, adds its own processes to the load per core, up to 10; a given TEST_TIME_SCALE wins', () => {
    const given = process.env.TEST_TIME_SCALE;
    try {
      delete process.env.TEST_TIME_SCALE;
      const scale = expectOwnLoad(4 * availableParallelism());
      expect(scale).toBeGreaterThanOrEqual(4);
      expect(process.env.TEST_TIME_SCALE).toBe(String(scale)); // what the run's children inherit
      delete process.env.TEST_TIME_SCALE;
      expect(expectOwnLoad(1_000 * availableParallelism())).toBe(10);
      process.env.TEST_TIME_SCALE = '3';
      expect(expectOwnLoad(1_000)).toBe(3);
    } finally {
      if (given === undefined) delete process.env.TEST_TIME_SCALE;
      else process.env.TEST_TIME_SCALE = given;
    }
  });

  it('stretches the default timeout as a file starts, the configured one unstretched (it keys the transform cache)', () => {
    const state: State = { testTimeout: 30_000 };
    void handle({ name: 'run_start' }, state);
    expect(state.testTimeout).toBe(scaled(30_000));
  });

  it("stretches the timeout a test or a hook names, and leaves one that names none to jest's (stretched) default", () => {
    const block: Block = { children: [{ timeout: 90_000 }], hooks: [{ timeout: 60_000 }] };
    void handle({ name: 'add_test', timeout: 90_000 }, { currentDescribeBlock: block });
    void handle({ name: 'add_hook', timeout: 60_000 }, { currentDescribeBlock: block });
    expect(block).toEqual({ children: [{ timeout: scaled(90_000) }], hooks: [{ timeout: scaled(60_000) }] });

    const unnamed: Block = { children: [{ timeout: undefined }], hooks: [] };
    void handle({ name: 'add_test' }, { currentDescribeBlock: unnamed });
    expect(unnamed.children[0]?.timeout).toBeUndefined();
  });
});
