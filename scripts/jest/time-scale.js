// How much longer than on a quiet machine a test may wait: TEST_TIME_SCALE when set, otherwise the
// machine's load per core at start (at least 1, at most 10 so that a hung test still ends). Plain
// JavaScript so jest's config, the e2e harness and the scripts share the one rule; once computed it
// is put in the environment, so jest's workers and child processes agree.
import { availableParallelism, loadavg } from 'node:os';

export function timeScale() {
  const given = Number(process.env.TEST_TIME_SCALE);
  if (Number.isFinite(given) && given > 0) return given;
  const scale = Math.min(10, Math.max(1, Math.round((loadavg()[0] / availableParallelism()) * 10) / 10));
  process.env.TEST_TIME_SCALE = String(scale);
  return scale;
}

/** `ms` stretched by the time scale. */
export function scaled(ms) {
  return Math.ceil(ms * timeScale());
}
