// Jest test sequencer: the longest suites first, so the last minutes of a lane are not one long
// suite running alone. Jest's own sequencer does this from the timings it cached on this machine and
// path; where it has none (a fresh clone, as CI's), it goes by file size, which puts a short file that
// drives a long run (the faults script, the fuzzer) last. The repository keeps the seconds each suite
// took in a full run in suite-seconds.json at its root (`npm test -- --record-suite-seconds` rewrites
// it), and this reads them where jest has no timing.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import TestSequencer from '@jest/test-sequencer';

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const recorded = JSON.parse(readFileSync(new URL('../../../suite-seconds.json', import.meta.url), 'utf8'));

export default class LongestFirstSequencer extends TestSequencer {
  /** Jest's cached time of the suite, or the one recorded for it, or none (then its size decides). */
  time(test) {
    const seconds = recorded[relative(repositoryRoot, test.path)];
    return super.time(test) ?? (seconds === undefined ? undefined : seconds * 1000);
  }
}
