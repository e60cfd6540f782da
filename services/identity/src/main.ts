import './instrument.js';
import { startEventTransport } from '@school/messaging/nest';
import { startService } from '@school/service';
import { MIGRATIONS } from './migrations.js';
import { AppModule } from './app.module.js';
import { identityConfigRules, identityEnv } from './config.js';

await startService({
  name: 'identity',
  env: identityEnv,
  rules: identityConfigRules,
  module: (config) => AppModule.forRoot(config),
  migrations: MIGRATIONS,
  beforeListen: startEventTransport,
});
