import { backoffDelay } from './backoff.js';
import { versionAtLeast } from './amqp/amqp-connection.js';

describe('backoffDelay', () => {
  const options = { initialMs: 100, maxMs: 1_000 };

  it('doubles per attempt within [ceiling/2, ceiling] and never exceeds the maximum', () => {
    expect(backoffDelay(0, options, () => 0)).toBe(50);
    expect(backoffDelay(0, options, () => 1)).toBe(100);
    expect(backoffDelay(2, options, () => 1)).toBe(400);
    expect(backoffDelay(10, options, () => 1)).toBe(1_000);
    expect(backoffDelay(1_000, options, () => 0.5)).toBe(750);
  });
});

describe('versionAtLeast', () => {
  it('compares a broker version with major.minor (quorum queues from 3.8, their TTL from 3.10)', () => {
    expect(versionAtLeast('3.7.28', 3, 8)).toBe(false);
    expect(versionAtLeast('3.8.0', 3, 8)).toBe(true);
    expect(versionAtLeast('3.9.29', 3, 10)).toBe(false);
    expect(versionAtLeast('3.10.8', 3, 10)).toBe(true);
    expect(versionAtLeast('4.1.0', 3, 10)).toBe(true);
  });
});
