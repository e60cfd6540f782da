import './instrument.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '@school/config';
import { createMetricsRegistry, startMetricsServer } from '@school/metrics';
import { createLogger, stopTelemetry } from '@school/telemetry';
import { buildGateway } from './app.js';
import { gatewayConfigRules, gatewayEnv } from './config.js';

/** In-flight requests get this long to finish after a shutdown signal; then their connections are cut. */
const DRAIN_TIMEOUT_MS = 8_000;
const TELEMETRY_FLUSH_TIMEOUT_MS = 1_000;

const config = loadConfig(gatewayEnv, { role: 'gateway', rules: gatewayConfigRules });
const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });

try {
  const metrics = createMetricsRegistry();
  const app = await buildGateway(config, { logger, metrics });
  await app.listen({ host: config.HOST, port: config.PORT });
  const metricsServer = await startMetricsServer(metrics, { host: config.METRICS_HOST, port: config.METRICS_PORT });
  logger.info(`gateway metrics on http://${config.METRICS_HOST}:${metricsServer.port}/metrics`);

  const shutdown = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'gateway stopping: no new connections, draining in-flight requests');
    setTimeout(() => app.server.closeAllConnections(), DRAIN_TIMEOUT_MS).unref();
    Promise.all([app.close(), metricsServer.close()])
      .then(() => logger.info('gateway stopped'))
      // Exporting the last spans is best effort: an unreachable collector must not hold the exit.
      .then(() => Promise.race([stopTelemetry(), sleep(TELEMETRY_FLUSH_TIMEOUT_MS)]))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'gateway did not stop cleanly');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
} catch (error) {
  logger.fatal({ err: error }, `gateway failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
