import './instrument.js';
import { startService } from '@school/service';
import { MIGRATIONS } from './migrations.js';
import { AppModule } from './app.module.js';
import { notifierEnv } from './config.js';
import { startInboundEvents } from './inbound/start-inbound-events.js';

await startService({
  name: 'notifier',
  env: notifierEnv,
  module: (config) => AppModule.forRoot(config),
  migrations: MIGRATIONS,
  beforeListen: startInboundEvents,
});
