import type { Server } from 'node:http';
import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { AmqpEventTransport } from '../nest/amqp-event.transport.js';
import { startEventTransport } from '../nest/start-event-transport.js';

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

/** Starts an app as its main() does (the event transport first, consuming within `timeoutMs`), listening on 127.0.0.1 at `port` (0: any free one); its base URL. */
export async function listenConsuming(app: INestApplication, timeoutMs: number, port = 0): Promise<string> {
  await startEventTransport(app);
  await untilConsuming(app, timeoutMs);
  await app.listen(port, '127.0.0.1');
  const address = (app.getHttpServer() as Server).address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
}
