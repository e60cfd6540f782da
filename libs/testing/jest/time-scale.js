// How much longer than on a quiet machine a test may wait: TEST_TIME_SCALE when set, otherwise the
// machine's load per core at start (at least 1, at most 10 so that a hung test still ends). Plain
// JavaScript so jest's config, the e2e harness and the scripts share the one rule; once computed it
// is put in the environment, so jest's workers and child processes agree.
import { availableParallelism, loadavg } from 'node:os';

const MAX_SCALE = 10;

export function timeScale() {
  const given = Number(process.env.TEST_TIME_SCALE);
  if (Number.isFinite(given) && given > 0) return given;
  return settle(0);
}

/**
 * For a run that will load the machine itself with `processes` busy at once (npm test's lanes, each
 * starting processes of its own): the load the machine carries now plus that, per core. A scale read
 * from a quiet machine's load would be 1 while the run's own lanes keep every core saturated.
 * TEST_TIME_SCALE, when given, still wins.
 */
export function expectOwnLoad(processes) {
  const given = Number(process.env.TEST_TIME_SCALE);
  if (Number.isFinite(given) && given > 0) return given;
  return settle(processes);
}

function settle(ownProcesses) {
  const perCore = (loadavg()[0] + ownProcesses) / availableParallelism();
  const scale = Math.min(MAX_SCALE, Math.max(1, Math.round(perCore * 10) / 10));
  process.env.TEST_TIME_SCALE = String(scale);
  return scale;
}

/** `ms` stretched by the time scale. */
export function scaled(ms) {
  return Math.ceil(ms * timeScale());
}
