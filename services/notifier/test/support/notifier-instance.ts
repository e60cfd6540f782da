import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseConfig } from '@school/config';
import { startEventTransport } from '@school/messaging/nest';
import { createServiceApp } from '@school/service';
import { createLogger } from '@school/telemetry';
import { AppModule } from '../../src/app.module.js';
import { notifierEnv, type NotifierConfig } from '../../src/config.js';

export interface NotifierInstance {
  app: NestFastifyApplication;
  config: NotifierConfig;
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

export interface NotifierLogOptions {
  /** Receives the replica's pino lines (JSON, one per line) at `level`. */
  destination: { write(line: string): void };
  level: string;
}

/** One notifier replica, wired exactly as main.ts wires it, in the test's own database schema. */
export async function startNotifier(databaseSchema: string, variables: Record<string, string>, log?: NotifierLogOptions): Promise<NotifierInstance> {
  const config = parseConfig(notifierEnv, { ...process.env, NODE_ENV: 'test', PORT: '0', MIGRATE_ON_START: 'false', ...variables });
  const logger = log
    ? createLogger({ service: 'notifier', level: log.level }, log.destination)
    : createLogger({ service: 'notifier', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const app = await createServiceApp(AppModule.forRoot(config, { databaseSchema }), { logger });
  await startEventTransport(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.getHttpServer().address() as AddressInfo;
  let closed = false;
  return {
    app,
    config,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      if (closed) return;
      closed = true;
      await app.close();
    },
  };
}
