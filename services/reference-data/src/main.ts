import './instrument.js';
import { startEventService } from '@school/messaging/nest';
import { MIGRATIONS } from './migrations.js';
import { AppModule } from './app.module.js';
import { referenceDataConfigRules, referenceDataEnv } from './config.js';

await startEventService({ name: 'reference-data', env: referenceDataEnv, rules: referenceDataConfigRules, app: AppModule, migrations: MIGRATIONS });
