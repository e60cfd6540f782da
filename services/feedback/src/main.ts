import './instrument.js';
import { startService } from '@school/service';
import { MIGRATIONS } from './migrations.js';
import { AppModule } from './app.module.js';
import { feedbackEnv } from './config.js';

await startService({
  name: 'feedback',
  env: feedbackEnv,
  module: (config) => AppModule.forRoot(config),
  migrations: MIGRATIONS,
});
