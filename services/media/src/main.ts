import './instrument.js';
import { startEventService } from '@school/messaging/nest';
import { MIGRATIONS } from './migrations.js';
import { AppModule } from './app.module.js';
import { mediaConfigRules, mediaEnv } from './config.js';

await startEventService({ name: 'media', env: mediaEnv, rules: mediaConfigRules, app: AppModule, migrations: MIGRATIONS });
