import './instrument.js';
import { startService } from '@school/service';
import { AppModule } from './app.module.js';
import { mediaEnv } from './config.js';

await startService({
  name: 'media',
  env: mediaEnv,
  module: (config) => AppModule.forRoot(config),
  migrations: new URL('../prisma/migrations', import.meta.url),
});
