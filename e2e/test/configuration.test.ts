import { readFileSync } from 'node:fs';
import { SERVICE_NAMES, servicePortVariable, serviceUrlVariable } from '@school/config';
import { documentedVariables } from '../../scripts/src/start/help.js';
import { parse } from 'yaml';
import { OUTSIDE_SHAPES, PROCESS_CONFIG, root } from './support/deployment.js';

/** Every variable named in the first column of the configuration table of docs/configuration.md. */
function documentedTableVariables(): string[] {
  return readFileSync(`${root}/docs/configuration.md`, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] as string));
}

describe('configuration documentation', () => {
  const example = documentedVariables(root).map((variable) => variable.name);
  const read = new Set([...Object.values(PROCESS_CONFIG).flatMap(({ shape }) => Object.keys(shape)), ...OUTSIDE_SHAPES]);

  it('.env.example lists every variable a process reads, once, and nothing else', () => {
    expect(new Set(example).size).toBe(example.length);
    expect([...read].filter((name) => !example.includes(name))).toEqual([]);
    expect(example.filter((name) => !read.has(name))).toEqual([]);
  });

  it('the configuration table of docs/configuration.md names the same variables as .env.example', () => {
    expect([...new Set(documentedTableVariables())].sort()).toEqual([...example].sort());
  });

  it('names every service port and URL variable of the topology', () => {
    for (const name of SERVICE_NAMES) {
      expect(example).toContain(servicePortVariable(name));
      expect(example).toContain(serviceUrlVariable(name));
    }
  });
});

describe('npm run infra', () => {
  const compose = parse(readFileSync(`${root}/docker-compose.yml`, 'utf8'), { merge: true }) as {
    services: Record<string, { healthcheck?: unknown; ports?: string[]; environment?: Record<string, string> }>;
  };
  const script = (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts['infra'];

  it('starts exactly PostgreSQL, Redis and RabbitMQ from docker-compose.yml and waits for their health', () => {
    expect(script).toBe('docker compose up -d --wait postgres redis rabbitmq');
    for (const name of ['postgres', 'redis', 'rabbitmq']) {
      expect(compose.services[name]?.healthcheck).toBeDefined();
    }
  });

  it('publishes them where the default URLs point (loopback only), and PostgreSQL accepts the default DATABASE_URL', () => {
    expect(compose.services['postgres']?.ports).toContain('127.0.0.1:5432:5432');
    expect(compose.services['redis']?.ports).toContain('127.0.0.1:6379:6379');
    expect(compose.services['rabbitmq']?.ports).toContain('127.0.0.1:5672:5672');
    expect(compose.services['postgres']?.environment?.['POSTGRES_HOST_AUTH_METHOD']).toBe('trust');
  });
});
