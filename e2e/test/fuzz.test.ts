import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fuzz } from '../src/fuzz/fuzzer.js';
import { formatReport } from '../src/fuzz/report.js';
import { type RunningSystem, startSystem } from '@school/system-harness';

/** CI's share of `npm run fuzz`: a fixed seed and a small count, every operation of the document covered. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 400);

describe('fuzzing every documented operation through the gateway', () => {
  let system: RunningSystem;

  beforeAll(async () => {
    system = await startSystem({ env: { TRUST_PROXY: '1' } });
  }, 90_000);
  afterAll(() => system?.shutdown());

  it('answers every generated request without a 5xx, a hang, a broken envelope or a leak', async () => {
    const report = await fuzz(system, { seed: SEED, requests: REQUESTS });
    const text = formatReport(report, `FUZZ_SEED=${SEED} FUZZ_REQUESTS=${REQUESTS}, or npm run fuzz -- --seed ${SEED} --requests ${REQUESTS}`);
    expect(report.requests).toBeGreaterThanOrEqual(REQUESTS);
    expect(report.statuses.size).toBe(report.operations);
    if (report.failures.length > 0) throw new Error(text);
  }, 600_000);
});
