import { Global, Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { ReadinessRegistry } from './readiness.js';

@Global()
@Module({
  controllers: [HealthController],
  providers: [ReadinessRegistry],
  exports: [ReadinessRegistry],
})
export class HealthModule {}
