import './instrument.js';
import { startService } from '@school/service';
import { AppModule } from './app.module.js';
import { mediaConfigRules, mediaEnv } from './config.js';

await startService({
  name: 'media',
  env: mediaEnv,
  rules: mediaConfigRules,
  module: (config) => AppModule.forRoot(config),
  migrations: new URL('../prisma/migrations', import.meta.url),
});
