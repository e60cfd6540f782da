import { describe, expect, it } from '@jest/globals';
import ScaledTimeoutsEnvironment from '../../../scripts/jest/environment.js';
import { scaled, timeScale } from '../src/index.js';

type Added = { timeout: number | undefined };
type Block = { children: Added[]; hooks: Added[] };
const handle = (event: { name: string; timeout?: number }, block: Block) =>
  (ScaledTimeoutsEnvironment.prototype as unknown as { handleTestEvent(event: unknown, state: unknown): unknown }).handleTestEvent.call(
    { __proto__: ScaledTimeoutsEnvironment.prototype },
    event,
    { currentDescribeBlock: block },
  );

describe('the test time scale', () => {
  it('is at least 1 and stretches a bound by it', () => {
    expect(timeScale()).toBeGreaterThanOrEqual(1);
    expect(scaled(1_000)).toBe(Math.ceil(1_000 * timeScale()));
  });

  it("stretches the timeout a test or a hook names, and leaves one that names none to jest's (scaled) default", () => {
    const block: Block = { children: [{ timeout: 90_000 }], hooks: [{ timeout: 60_000 }] };
    void handle({ name: 'add_test', timeout: 90_000 }, block);
    void handle({ name: 'add_hook', timeout: 60_000 }, block);
    expect(block).toEqual({ children: [{ timeout: scaled(90_000) }], hooks: [{ timeout: scaled(60_000) }] });

    const unnamed: Block = { children: [{ timeout: undefined }], hooks: [] };
    void handle({ name: 'add_test' }, unnamed);
    expect(unnamed.children[0]?.timeout).toBeUndefined();
  });
});
