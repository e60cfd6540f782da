import './instrument.js';
import { startEventService } from '@school/messaging/nest';
import { MIGRATIONS } from './migrations.js';
import { AppModule } from './app.module.js';
import { identityConfigRules, identityEnv } from './config.js';

await startEventService({ name: 'identity', env: identityEnv, rules: identityConfigRules, app: AppModule, migrations: MIGRATIONS });
