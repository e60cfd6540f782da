import { amqpEnv, loadConfig, SERVICE_NAMES } from '@school/config';
import { dlq } from './dlq.command.js';

// Entry point of `npm run dlq -- list | replay [--id ID] | purge --yes [--queue NAME] [--json]`.
const { AMQP_URL, AMQP_NAME_PREFIX } = loadConfig(amqpEnv);
process.exitCode = await dlq(
  process.argv.slice(2),
  // Every consumer is a service of the topology; only those that have declared a dead-letter queue count.
  { url: AMQP_URL, prefix: AMQP_NAME_PREFIX, consumers: SERVICE_NAMES },
  { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) },
);
