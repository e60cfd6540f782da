import { backoffDelay } from './backoff.js';
import { supportsQuorum } from './amqp/amqp-connection.js';
import { uuidv7 } from './outbox/uuid-v7.js';

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

describe('supportsQuorum', () => {
  it('is true from RabbitMQ 3.8 on', () => {
    expect(supportsQuorum('3.7.28')).toBe(false);
    expect(supportsQuorum('3.8.0')).toBe(true);
    expect(supportsQuorum('3.10.8')).toBe(true);
    expect(supportsQuorum('4.1.0')).toBe(true);
  });
});

describe('uuidv7', () => {
  it('is a version-7 RFC 9562 UUID ordered by time', () => {
    const first = uuidv7(1_700_000_000_000);
    const second = uuidv7(1_700_000_000_001);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first < second).toBe(true);
  });
});
