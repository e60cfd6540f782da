#!/usr/bin/env node
// Writes the per-process manifests of the Kustomize base (base/processes.yaml) from the one list
// of processes and ports in libs/config and each process's config shape, so no manifest is a
// pasted copy. After `npm run build`: `node deploy/k8s/generate.mjs` (`--check`: fail if stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GATEWAY_PORT, PROCESS_NAMES, SERVICES, SERVICE_NAMES, serviceUrlVariable } from '@school/config';
import { stringify } from 'yaml';
import { MIGRATE } from '../../scripts/docker/assemble.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const PART_OF = 'school-commerce';
export const CONFIG_MAP = 'school-commerce-config';
const PEERS_CONFIG_MAP = 'school-commerce-peers';
export const SECRET = 'school-commerce-secrets';
/** The gateway serves Prometheus on METRICS_PORT (its shape's default, else 9464), never on its public PORT. */
const METRICS_PORT_FALLBACK = 9464;

/**
 * Variables that carry credentials: they come from the Secret, never the ConfigMap. Required ones
 * stop the pod from starting when the Secret lacks them; the others are checked by the process.
 */
export const SECRET_VARIABLES = {
  DATABASE_URL: true,
  REDIS_URL: true,
  AMQP_URL: true,
  CACHE_REDIS_URL: false,
  SMTP_URL: false,
  JWT_PRIVATE_KEY: false,
  OTP_SECRET: false,
  SIGNED_URL_SECRET: false,
  S3_ACCESS_KEY: false,
  S3_SECRET_KEY: false,
  BOOTSTRAP_ADMIN_PASSWORD: false,
};

const image = (name) => `school-commerce-${name}`;
const labels = (name) => ({ 'app.kubernetes.io/name': name, 'app.kubernetes.io/part-of': PART_OF });
const portOf = (name) => (name === 'gateway' ? GATEWAY_PORT : SERVICES[name].port);

/** A process's config shape: the exported object of variables its dist/config.js validates. */
async function shapeOf(name) {
  const module = await import(`${root}services/${name}/dist/config.js`);
  const shape = Object.values(module).find((value) => value && typeof value === 'object' && 'LOG_LEVEL' in value);
  if (!shape) throw new Error(`services/${name}/dist/config.js exports no config shape`);
  return shape;
}

function metricsPortOf(name, shape) {
  if (name !== 'gateway') return portOf(name);
  return shape.METRICS_PORT?.safeParse(undefined).data ?? METRICS_PORT_FALLBACK;
}

function secretEnv(variables) {
  return variables
    .filter((variable) => variable in SECRET_VARIABLES)
    .map((variable) => ({ name: variable, valueFrom: { secretKeyRef: { name: SECRET, key: variable, ...(SECRET_VARIABLES[variable] ? {} : { optional: true }) } } }));
}

const httpProbe = (path, extra) => ({ httpGet: { path, port: 'http' }, ...extra });

/** The gateway is ready when it serves: its /health/ready reports every service, and one service down must not empty it. */
const readinessPath = (name) => (name === 'gateway' ? '/health/live' : '/health/ready');

function deployment(name, shape) {
  const metricsPort = metricsPortOf(name, shape);
  const ports = [{ name: 'http', containerPort: portOf(name) }, ...(metricsPort !== portOf(name) ? [{ name: 'metrics', containerPort: metricsPort }] : [])];
  const env = secretEnv(Object.keys(shape));
  const container = {
    name,
    image: image(name),
    ports,
    envFrom: [{ configMapRef: { name: PEERS_CONFIG_MAP } }, { configMapRef: { name: CONFIG_MAP } }],
    ...(env.length > 0 && { env }),
    startupProbe: httpProbe('/health/live', { periodSeconds: 2, failureThreshold: 60 }),
    livenessProbe: httpProbe('/health/live', { periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 3 }),
    readinessProbe: httpProbe(readinessPath(name), { periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 2 }),
    // Endpoints are removed while the pod still serves; then SIGTERM starts the process's own drain.
    lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
    resources: name === 'identity'
      ? { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '768Mi' } } // argon2id: 64 MiB per verification in flight
      : { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '512Mi' } },
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
  };
  const waitForMigrations = name === 'gateway' ? [] : [{
    name: 'wait-for-migrations',
    image: image(name),
    command: ['node', `services/${name}/dist/migrate.js`, '--check'],
    env: secretEnv(['DATABASE_URL']),
    securityContext: container.securityContext,
  }];
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: labels(name) },
    spec: {
      replicas: 2,
      selector: { matchLabels: { 'app.kubernetes.io/name': name } },
      template: {
        metadata: {
          labels: labels(name),
          annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(metricsPort), 'prometheus.io/path': '/metrics' },
        },
        spec: {
          securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
          terminationGracePeriodSeconds: 30,
          ...(waitForMigrations.length > 0 && { initContainers: waitForMigrations }),
          containers: [container],
          volumes: [{ name: 'tmp', emptyDir: {} }],
        },
      },
    },
  };
}

function withTmp(object) {
  object.spec.template.spec.containers[0].volumeMounts = [{ name: 'tmp', mountPath: '/tmp' }];
  return object;
}

const service = (name) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, labels: labels(name) },
  spec: { selector: { 'app.kubernetes.io/name': name }, ports: [{ name: 'http', port: portOf(name), targetPort: 'http' }] },
});

const disruptionBudget = (name) => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name, labels: labels(name) },
  spec: { maxUnavailable: 1, selector: { matchLabels: { 'app.kubernetes.io/name': name } } },
});

const autoscaler = (name) => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name, labels: labels(name) },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
    minReplicas: 2,
    maxReplicas: 6,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
  },
});

/** Every service's migrations (scripts/migrate.mjs in the migrate image); the services' init containers wait for it. */
const migrationJob = () => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: MIGRATE, labels: labels(MIGRATE) },
  spec: {
    backoffLimit: 6,
    // Gone some minutes after success, so the next `kubectl apply -k` (a new image) creates it again.
    ttlSecondsAfterFinished: 600,
    template: {
      metadata: { labels: labels(MIGRATE) },
      spec: {
        restartPolicy: 'OnFailure',
        securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [{
          name: MIGRATE,
          image: image(MIGRATE),
          env: secretEnv(['DATABASE_URL']),
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
          securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        }],
      },
    },
  },
});

/** Where each process reaches the others: the contract ports, on the cluster's Service names. */
const peerConfig = () => ({
  ...Object.fromEntries(SERVICE_NAMES.map((name) => [serviceUrlVariable(name), `http://${name}:${portOf(name)}`])),
  JWKS_URL: `http://identity:${portOf('identity')}/.well-known/jwks.json`,
});

async function base() {
  const objects = [];
  for (const name of PROCESS_NAMES) {
    objects.push(withTmp(deployment(name, await shapeOf(name))), service(name), disruptionBudget(name), autoscaler(name));
  }
  objects.push(migrationJob(), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: PEERS_CONFIG_MAP }, data: peerConfig() });
  return objects;
}

const document = (objects) => `# Generated by deploy/k8s/generate.mjs from libs/config; do not edit.\n${objects.map((object) => stringify(object, { lineWidth: 0, aliasDuplicateObjects: false })).join('---\n')}`;

export async function generated() {
  return { [`${here}base/processes.yaml`]: document(await base()) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  for (const [path, content] of Object.entries(await generated())) {
    const current = (() => { try { return readFileSync(path, 'utf8'); } catch { return ''; } })();
    if (current === content) continue;
    if (check) {
      console.error(`${path} is stale: run node deploy/k8s/generate.mjs`);
      process.exit(1);
    }
    writeFileSync(path, content);
  }
}
