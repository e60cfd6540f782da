import { ChecksInFlight } from './checks-in-flight.js';

describe('ChecksInFlight (contract §9: checks of one email at once)', () => {
  it('starts at most `allowed` checks of an email, and any number of another', () => {
    const checks = new ChecksInFlight();
    const turns = Array.from({ length: 3 }, () => checks.join('a'));
    expect(turns.map((turn) => turn.tryStart(2, turn.endedSoFar()))).toEqual([true, true, false]);
    expect(checks.join('b').tryStart(2, 0)).toBe(true);
  });

  it('wakes a waiting login when a check ends, and then lets it start', async () => {
    const checks = new ChecksInFlight();
    const first = checks.join('a');
    const second = checks.join('a');
    expect(first.tryStart(1, 0)).toBe(true);
    const seen = second.endedSoFar();
    expect(second.tryStart(1, seen)).toBe(false);
    const woken = second.waitForEnd(seen, Date.now() + 60_000);
    first.leave();
    expect(await woken).toBe(true);
    expect(second.tryStart(1, second.endedSoFar())).toBe(true);
  });

  it('refuses a start decided on a count read before a check ended: the count may have changed', async () => {
    const checks = new ChecksInFlight();
    const first = checks.join('a');
    const second = checks.join('a');
    expect(first.tryStart(5, 0)).toBe(true);
    const seen = second.endedSoFar();
    first.leave();
    expect(second.tryStart(5, seen)).toBe(false);
    expect(await second.waitForEnd(seen, Date.now())).toBe(true);
  });

  it('gives up waiting at the deadline', async () => {
    const checks = new ChecksInFlight();
    checks.join('a').tryStart(1, 0);
    const waiting = checks.join('a');
    expect(await waiting.waitForEnd(waiting.endedSoFar(), Date.now() + 5)).toBe(false);
  });

  it('forgets an email once its logins are answered, started or not', () => {
    const checks = new ChecksInFlight();
    const started = checks.join('a');
    const refused = checks.join('a');
    started.tryStart(1, 0);
    refused.leave();
    expect(checks.size).toBe(1);
    started.leave();
    started.leave();
    expect(checks.size).toBe(0);
  });
});
