import './instrument.js';
import { startEventTransport } from '@school/messaging/nest';
import { startService } from '@school/service';
import { MIGRATIONS } from './migrations.js';
import { AppModule } from './app.module.js';
import { referenceDataConfigRules, referenceDataEnv } from './config.js';

await startService({
  name: 'reference-data',
  env: referenceDataEnv,
  rules: referenceDataConfigRules,
  module: (config) => AppModule.forRoot(config),
  migrations: MIGRATIONS,
  beforeListen: startEventTransport,
});
