import './instrument.js';
import { startEventTransport } from '@school/messaging/nest';
import { startService } from '@school/service';
import { MIGRATIONS } from './migrations.js';
import { AppModule } from './app.module.js';
import { feedbackConfigRules, feedbackEnv } from './config.js';

await startService({
  name: 'feedback',
  env: feedbackEnv,
  rules: feedbackConfigRules,
  module: (config) => AppModule.forRoot(config),
  migrations: MIGRATIONS,
  beforeListen: startEventTransport,
});
