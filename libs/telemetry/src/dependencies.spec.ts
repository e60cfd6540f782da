import { readFileSync } from 'node:fs';

// The OpenTelemetry packages pin each other's exact versions: two releases side by side put several
// copies of @opentelemetry/core in every process (there were four, some 100 modules loaded again at
// every start). libs/telemetry and libs/messaging pin one release; this says when a bump forgets one.
const SHARED = ['@opentelemetry/api', '@opentelemetry/core', '@opentelemetry/resources', '@opentelemetry/sdk-trace', '@opentelemetry/sdk-trace-base'];

const lock = JSON.parse(readFileSync(new URL('../../../package-lock.json', import.meta.url), 'utf8')) as { packages: Record<string, unknown> };

describe('the OpenTelemetry packages', () => {
  it.each(SHARED)('install one copy of %s', (name) => {
    expect(Object.keys(lock.packages).filter((path) => path.endsWith(`node_modules/${name}`))).toHaveLength(1);
  });
});
