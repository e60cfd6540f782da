import { Global, Module } from '@nestjs/common';
import { createMetricsRegistry, Registry } from '@school/metrics';
import { HealthController } from './health.controller.js';
import { ReadinessRegistry } from './readiness.js';

/** Health endpoints and the app's metrics registry (served at GET /metrics by createServiceApp), for every module to report into. */
@Global()
@Module({
  controllers: [HealthController],
  providers: [ReadinessRegistry, { provide: Registry, useFactory: createMetricsRegistry }],
  exports: [ReadinessRegistry, Registry],
})
export class HealthModule {}
