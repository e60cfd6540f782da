// Jest test sequencer: the longest suites first, so the last minutes of a lane are not one long
// suite running alone. Jest's own sequencer does this from the timings it cached on this machine and
// path; where it has none (a fresh clone, as CI's), it goes by file size, which puts a short file that
// drives a long run (the faults script, the fuzzer) last. Such a project keeps the seconds each suite
// took in a full run in `suite-seconds.json` beside its jest config (`npm test` prints the slowest
// suites; docs/testing.md says how to refresh it), and this reads them where jest has no timing.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import TestSequencer from '@jest/test-sequencer';

export default class LongestFirstSequencer extends TestSequencer {
  #recorded = new Map();

  /** Jest's cached time of the suite, or the one recorded for the project, or none (then its size decides). */
  time(test) {
    return super.time(test) ?? this.#recordedSeconds(test);
  }

  #recordedSeconds(test) {
    const { rootDir } = test.context.config;
    if (!this.#recorded.has(rootDir)) this.#recorded.set(rootDir, readRecorded(rootDir));
    const seconds = this.#recorded.get(rootDir)[relative(rootDir, test.path)];
    return seconds === undefined ? undefined : seconds * 1000;
  }
}

function readRecorded(rootDir) {
  try {
    return JSON.parse(readFileSync(join(rootDir, 'suite-seconds.json'), 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return {};
    throw error;
  }
}
