import './instrument.js';
import { startEventTransport } from '@school/messaging/nest';
import { startService } from '@school/service';
import { MIGRATIONS } from './migrations.js';
import { AppModule } from './app.module.js';
import { mediaConfigRules, mediaEnv } from './config.js';

await startService({
  name: 'media',
  env: mediaEnv,
  rules: mediaConfigRules,
  module: (config) => AppModule.forRoot(config),
  migrations: MIGRATIONS,
  beforeListen: startEventTransport,
});
