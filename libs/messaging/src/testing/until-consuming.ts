import type { INestApplicationContext } from '@nestjs/common';
import { AmqpEventTransport } from '../nest/amqp-event.transport.js';

/**
 * Start-up does not wait for the broker (readiness reports it), so a test that publishes as soon
 * as the app started would lose its message to a queue not bound yet: wait until it consumes.
 */
export async function untilConsuming(app: INestApplicationContext, timeoutMs: number): Promise<void> {
  const transport = app.get(AmqpEventTransport);
  const deadline = Date.now() + timeoutMs;
  while (!transport.isConsuming()) {
    if (Date.now() > deadline) throw new Error(`the event consumer did not start consuming within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
