import './instrument.js';
import { OUTBOX_MIGRATIONS } from '@school/messaging';
import { startService } from '@school/service';
import { AppModule } from './app.module.js';
import { identityConfigRules, identityEnv } from './config.js';

await startService({
  name: 'identity',
  env: identityEnv,
  rules: identityConfigRules,
  module: (config) => AppModule.forRoot(config),
  migrations: [new URL('../prisma/migrations', import.meta.url), OUTBOX_MIGRATIONS],
});
