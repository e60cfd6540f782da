import 'reflect-metadata';
import { generateKeyPairSync } from 'node:crypto';
import { parseEnv } from 'node:util';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { PROCESS_NAMES, type ProcessName, runtimeEnv, SERVICE_NAMES } from '@school/config';
import Fastify from 'fastify';
import { parseAllDocuments } from 'yaml';
import { SECRET } from '../../../deploy/k8s/generate.mjs';
import { HealthController } from '../../../libs/service/src/health.controller.js';
import { registerHealthRoutes } from '../../../services/gateway/src/health/health.routes.js';
import { UPLOADS_IN_FLIGHT_LIMITS } from '../../../services/gateway/src/throttle/uploads-in-flight.js';
import { containerConfig, imageEnvironment, readRepoFile } from './deployment.js';
import { admits, type Pod, policiesSelecting } from './network-policy.js';

/**
 * What every rendering of the Kubernetes objects (the Helm chart for each values file, the Kustomize
 * overlays rendered from it) is checked for: the Kubernetes schemas, and what each process reads.
 */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  data?: Record<string, string>;
}
export type EnvVar = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } } };
export interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name: string; containerPort: number }[];
  env?: EnvVar[];
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: { httpGet?: { path: string; port: string } };
  livenessProbe?: { httpGet?: { path: string; port: string } };
  startupProbe?: { httpGet?: { path: string; port: string } };
  resources?: { requests?: Record<string, string> };
}

type Volume = { name: string; emptyDir?: { sizeLimit?: string } };

const SECRET_NAME = /SECRET|PASSWORD|PRIVATE_KEY|ACCESS_KEY|TOKEN|_PASS$/;

/** The objects of a multi-document YAML stream (empty documents, e.g. helm's leading `---`, dropped). */
export function parseObjects(yaml: string): K8sObject[] {
  return parseAllDocuments(yaml)
    .map((document) => document.toJSON() as K8sObject | null)
    .filter((object): object is K8sObject => object !== null);
}

/** Objects of the prometheus-operator are not in kubernetes-models: their own tests check them. */
const CUSTOM_RESOURCES = ['monitoring.coreos.com/v1'];

export async function validate(object: K8sObject): Promise<void> {
  if (CUSTOM_RESOURCES.includes(object.apiVersion)) return;
  const models = (await import(`kubernetes-models/${object.apiVersion}`)) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = models[object.kind];
  if (!Model) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
  // kustomize folds long base64 values over lines; the API server decodes them whitespace and all.
  const data = object.kind === 'Secret' ? Object.fromEntries(Object.entries(object.data ?? {}).map(([key, value]) => [key, value.replace(/\s/g, '')])) : undefined;
  new Model(data ? { ...object, data } : object).validate();
}

/** Values the operator puts in the production Secret: secrets.env.example, with a real signing key for the PEM. */
export function operatorSecret(): Record<string, string> {
  const example = parseEnv(readRepoFile('deploy/k8s/overlays/prod/secrets.env.example')) as Record<string, string>;
  const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { ...example, JWT_PRIVATE_KEY: example['JWT_PRIVATE_KEY'] || pem };
}

/** The routes a probe can hit: the gateway's own, and every service's HealthController. */
async function healthRoutes(name: ProcessName): Promise<(path: string) => boolean> {
  if (name === 'gateway') {
    const app = Fastify();
    registerHealthRoutes(app, { redis: {} as never, upstreams: {} as never, draining: () => false });
    await app.ready();
    return (path) => app.hasRoute({ method: 'GET', url: path });
  }
  const base = Reflect.getMetadata(PATH_METADATA, HealthController) as string;
  const paths = Object.getOwnPropertyNames(HealthController.prototype)
    .map((method) => Reflect.getMetadata(PATH_METADATA, (HealthController.prototype as unknown as Record<string, object>)[method] ?? {}) as string | undefined)
    .filter((path): path is string => path !== undefined)
    .map((path) => `/${base}/${path}`);
  return (path) => paths.includes(path);
}

export const imageName = (image: string) => image.split('/').pop()?.split(':')[0];
/** Deployments and Jobs: every object that makes pods. */
export const podTemplates = (objects: K8sObject[]) => objects.filter((object) => ['Deployment', 'Job'].includes(object.kind));

/** `2Gi`, `500Mi`, `1G`: bytes. */
export function quantityBytes(quantity: string): number {
  const match = /^(\d+)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(quantity);
  if (!match) throw new Error(`not a quantity: ${quantity}`);
  const units: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return Number(match[1]) * (match[2] ? (units[match[2]] ?? 1) : 1);
}
export const containersOf = (object: K8sObject): Container[] => [...(object.spec?.template?.spec?.initContainers ?? []), ...(object.spec?.template?.spec?.containers ?? [])];

export interface Rendering {
  objects: K8sObject[];
  /** Production: external services, credentials in a Secret the operator makes (secrets.env.example). */
  production: boolean;
}

/** The checks every rendering passes; call inside a describe block. */
export function itDeploysTheSystem({ objects, production }: Rendering): void {
  const find = (kind: string, name: string) => objects.find((object) => object.kind === kind && object.metadata.name === name);
  const deployment = (name: string) => find('Deployment', name);
  const container = (name: string) => deployment(name)?.spec.template.spec.containers[0] as Container;
  const secrets = new Map(objects.filter((object) => object.kind === 'Secret').map((object) => [object.metadata.name, object]));
  const migrationJobs = objects.filter((object) => object.kind === 'Job' && object.metadata.labels?.['app.kubernetes.io/name'] === 'migrate');

  function secretValue(ref: { name: string; key: string }): string | undefined {
    const secret = secrets.get(ref.name);
    if (secret) return secret.data?.[ref.key] === undefined ? undefined : Buffer.from(secret.data[ref.key] as string, 'base64').toString('utf8');
    return production && ref.name === SECRET ? operatorSecret()[ref.key] : undefined;
  }

  /** The container's environment as the kubelet builds it, on top of the image's ENV. */
  function environment(name: ProcessName, spec: Container = container(name)): Record<string, string> {
    const env: Record<string, string> = { ...imageEnvironment(name) };
    for (const source of spec.envFrom ?? []) {
      const configMap = source.configMapRef && find('ConfigMap', source.configMapRef.name);
      expect({ name, source, found: source.configMapRef === undefined || configMap !== undefined }).toEqual({ name, source, found: true });
      Object.assign(env, configMap?.data);
    }
    for (const variable of spec.env ?? []) {
      const ref = variable.valueFrom?.secretKeyRef;
      const value = ref ? secretValue(ref) : variable.value;
      if (ref && !ref.optional) expect({ name, variable: variable.name, provided: value !== undefined }).toEqual({ name, variable: variable.name, provided: true });
      if (value !== undefined) env[variable.name] = value;
    }
    return env;
  }

  it('renders objects that each validate against the Kubernetes schemas', async () => {
    expect(objects.length).toBeGreaterThan(PROCESS_NAMES.length * 4);
    for (const object of objects) await expect(validate(object).then(() => `${object.kind}/${object.metadata.name}`)).resolves.toBe(`${object.kind}/${object.metadata.name}`);
  });

  it.each([...PROCESS_NAMES])('gives %s every variable it reads: its configuration validates in the container', (name) => {
    expect(containerConfig(name, environment(name)).error).toBeUndefined();
  });

  it.each([...PROCESS_NAMES])("runs %s with the runtime's settings libs/config gives it (runtimeEnv)", (name) => {
    expect(environment(name)).toMatchObject(runtimeEnv(name));
  });

  it('keeps credentials out of ConfigMaps and literal container values: only Secrets hold them', () => {
    for (const configMap of objects.filter((object) => object.kind === 'ConfigMap')) {
      for (const [key, value] of Object.entries(configMap.data ?? {})) {
        const password = URL.canParse(value) ? new URL(value).password : '';
        expect({ configMap: configMap.metadata.name, key, secretName: SECRET_NAME.test(key), password }).toEqual({
          configMap: configMap.metadata.name,
          key,
          secretName: false,
          password: '',
        });
      }
    }
    for (const object of objects) {
      for (const spec of containersOf(object)) {
        const literal = (spec.env ?? []).filter(
          (variable) => variable.value !== undefined && (SECRET_NAME.test(variable.name) || (URL.canParse(variable.value) && new URL(variable.value).password !== '')),
        );
        expect({ object: object.metadata.name, container: spec.name, literal }).toEqual({ object: object.metadata.name, container: spec.name, literal: [] });
      }
    }
  });

  it.each([...PROCESS_NAMES])('probes %s on real health routes of its own port; the gateway is ready on its own health', async (name) => {
    const spec = container(name);
    const isRoute = await healthRoutes(name);
    const port = Number(containerConfig(name, environment(name)).config?.['PORT']);
    expect(spec.ports?.find((candidate) => candidate.name === 'http')?.containerPort).toBe(port);
    for (const probe of [spec.readinessProbe, spec.livenessProbe, spec.startupProbe]) {
      expect({ path: probe?.httpGet?.path, real: isRoute(probe?.httpGet?.path ?? ''), port: probe?.httpGet?.port }).toEqual({
        path: probe?.httpGet?.path,
        real: true,
        port: 'http',
      });
    }
    // /health/ready of the gateway reports every service: one service down must not empty the gateway.
    if (name === 'gateway') expect(spec.readinessProbe?.httpGet?.path).not.toBe('/health/ready');
    else expect(spec.readinessProbe?.httpGet?.path).toBe('/health/ready');
    expect(find('Service', name)?.spec.ports).toEqual([expect.objectContaining({ port, targetPort: 'http' })]);
  });

  it.each([...PROCESS_NAMES])('annotates %s for Prometheus on the port that serves /metrics (the gateway: METRICS_PORT on 0.0.0.0, never its public port)', (name) => {
    const config = containerConfig(name, environment(name)).config ?? {};
    const annotations = deployment(name)?.spec.template.metadata.annotations ?? {};
    const metricsPort =
      name === 'gateway' ? Number(config['METRICS_PORT'] ?? container(name).ports?.find((candidate) => candidate.name === 'metrics')?.containerPort) : Number(config['PORT']);
    expect(annotations).toEqual(expect.objectContaining({ 'prometheus.io/scrape': 'true', 'prometheus.io/path': '/metrics', 'prometheus.io/port': String(metricsPort) }));
    if (name === 'gateway') {
      expect(metricsPort).not.toBe(Number(config['PORT']));
      expect(container(name).ports?.find((candidate) => candidate.name === 'metrics')?.containerPort).toBe(metricsPort);
      // Contract §9: the metrics listener binds 127.0.0.1 unless METRICS_HOST says otherwise; a scraper is another pod.
      expect(environment(name)['METRICS_HOST']).toBe('0.0.0.0');
    }
  });

  it.each([...PROCESS_NAMES])('runs %s from its image, with resources, a PodDisruptionBudget and an autoscaler', (name) => {
    expect(imageName(container(name).image)).toBe(`school-commerce-${name}`);
    expect(container(name).resources?.requests).toEqual(expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String) }));
    const labels = deployment(name)?.spec.template.metadata.labels;
    expect(labels).toEqual(expect.objectContaining(find('PodDisruptionBudget', name)?.spec.selector.matchLabels));
    expect(find('HorizontalPodAutoscaler', name)?.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
  });

  it('migrates in a Job (every schema) before the services, which wait for it and do not migrate themselves', () => {
    expect(migrationJobs).toHaveLength(1);
    const jobContainer = migrationJobs[0]?.spec.template.spec.containers[0] as Container;
    expect(imageName(jobContainer.image)).toBe('school-commerce-migrate');
    expect(jobContainer.command).toBeUndefined(); // the image's entry point: scripts/dist/migrate.js
    expect(environment('identity', jobContainer)['DATABASE_URL']).toBe(environment('identity')['DATABASE_URL']);
    for (const name of SERVICE_NAMES) {
      expect({ name, migrate: containerConfig(name, environment(name)).config?.['MIGRATE_ON_START'] }).toEqual({ name, migrate: false });
      const wait = deployment(name)?.spec.template.spec.initContainers?.[0] as Container;
      expect(wait.command).toEqual(['node', `services/${name}/dist/migrate.js`, '--check']);
      expect(imageName(wait.image)).toBe(`school-commerce-${name}`);
      expect(readRepoFile(`services/${name}/src/migrate.ts`)).toContain(`migrateService('${name}'`);
      expect(environment(name, wait)['DATABASE_URL']).toBe(environment(name)['DATABASE_URL']);
    }
  });

  it('takes every image of the system from one registry at one tag', () => {
    const ours = objects
      .flatMap(containersOf)
      .map((spec) => spec.image)
      .filter((image) => /school-commerce-/.test(image));
    expect(ours.length).toBeGreaterThan(PROCESS_NAMES.length);
    expect([...new Set(ours.map((image) => image.replace(/school-commerce-[a-z-]+/, '<process>')))]).toEqual([expect.stringMatching(/<process>:[\w.-]+$/)]);
  });

  /** A pod of the rendering as a NetworkPolicy sees it: its labels and named ports. */
  function podOf(object: K8sObject): Pod {
    const ports = Object.fromEntries(containersOf(object).flatMap((spec) => (spec.ports ?? []).map((port) => [port.name, port.containerPort])));
    return { labels: object.spec.template.metadata?.labels ?? {}, ports };
  }
  const workload = (name: string) => podTemplates(objects).find((object) => object.spec.template.metadata?.labels?.['app.kubernetes.io/name'] === name);
  const stranger: Pod = { labels: { 'app.kubernetes.io/name': 'debug-shell' } };
  const scraper: Pod = { labels: { 'app.kubernetes.io/name': 'prometheus' }, namespace: 'other' };
  const portNumber = (name: string, port: string) => podOf(workload(name) as K8sObject).ports?.[port] ?? 0;
  /** The processes whose configuration holds an address on that host (identity's JWKS included). */
  const callersOf = (host: string) =>
    PROCESS_NAMES.filter(
      (name) =>
        name !== host &&
        Object.values(containerConfig(name, environment(name)).config ?? {}).some((value) => typeof value === 'string' && URL.canParse(value) && new URL(value).hostname === host),
    );

  it('puts every pod of the chart under a NetworkPolicy', () => {
    const pods = podTemplates(objects);
    expect(pods.length).toBeGreaterThan(PROCESS_NAMES.length);
    for (const object of pods)
      expect({ pod: object.metadata.name, policies: policiesSelecting(objects, podOf(object)).length }).toEqual({ pod: object.metadata.name, policies: 1 });
  });

  it.each([...SERVICE_NAMES])('lets only the gateway, the processes that call it and the metrics scraper reach %s: no other pod can skip the gateway', (name) => {
    const target = podOf(workload(name) as K8sObject);
    const http = portNumber(name, 'http');
    const callers = callersOf(name);
    expect(callers).toContain('gateway');
    for (const caller of PROCESS_NAMES.filter((candidate) => candidate !== name)) {
      expect({ caller, admitted: admits(objects, podOf(workload(caller) as K8sObject), target, http) }).toEqual({ caller, admitted: callers.includes(caller) });
    }
    expect(admits(objects, stranger, target, http)).toBe(false);
    expect(admits(objects, { ...stranger, namespace: 'other' }, target, http)).toBe(false);
    expect(admits(objects, podOf(migrationJobs[0] as K8sObject), target, http)).toBe(false);
    expect(admits(objects, scraper, target, http)).toBe(true);
  });

  it('opens the gateway to the ingress controller on its public port, its metrics listener to the scraper only, and the migrate Job to no one', () => {
    const gateway = podOf(workload('gateway') as K8sObject);
    const [http, metrics] = [portNumber('gateway', 'http'), portNumber('gateway', 'metrics')];
    expect(admits(objects, { labels: { 'app.kubernetes.io/name': 'ingress-nginx' }, namespace: 'other' }, gateway, http)).toBe(true);
    expect(admits(objects, stranger, gateway, metrics)).toBe(false);
    expect(admits(objects, scraper, gateway, metrics)).toBe(true);
    for (const source of [stranger, podOf(workload('gateway') as K8sObject)]) expect(admits(objects, source, podOf(migrationJobs[0] as K8sObject), 3000)).toBe(false);
  });

  it('runs every pod without a service-account token, as non-root, read-only, without privilege escalation or capabilities, under RuntimeDefault seccomp', () => {
    for (const object of podTemplates(objects)) {
      const pod = object.spec.template.spec;
      expect({
        pod: object.metadata.name,
        token: pod.automountServiceAccountToken,
        nonRoot: pod.securityContext?.runAsNonRoot,
        seccomp: pod.securityContext?.seccompProfile,
      }).toEqual({
        pod: object.metadata.name,
        token: false,
        nonRoot: true,
        seccomp: { type: 'RuntimeDefault' },
      });
      const volumes = (pod.volumes ?? []) as Volume[];
      const writable = new Set(volumes.filter((volume) => volume.emptyDir).map((volume) => volume.name));
      for (const spec of containersOf(object)) {
        expect({ pod: object.metadata.name, container: spec.name, securityContext: spec.securityContext }).toEqual({
          pod: object.metadata.name,
          container: spec.name,
          securityContext: expect.objectContaining({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } }),
        });
        // What a container may write is an emptyDir of its pod.
        expect({ container: spec.name, mounts: (spec.volumeMounts ?? []).filter((mount) => !writable.has(mount.name)) }).toEqual({ container: spec.name, mounts: [] });
      }
    }
  });

  it('pins every image: a tag or a digest, never latest', () => {
    for (const image of objects.flatMap(containersOf).map((spec) => spec.image)) {
      expect({ image, pinned: /(:[\w][\w.-]*|@sha256:[a-f0-9]{64})$/.test(image.split('/').pop() ?? '') && !/:latest$/.test(image) }).toEqual({ image, pinned: true });
    }
  });

  it("bounds the gateway's upload spool (/tmp): room for an address's uploads in flight at their largest, below what evicts a node", () => {
    const volumes = (deployment('gateway')?.spec.template.spec.volumes ?? []) as Volume[];
    const mount = container('gateway').volumeMounts?.find((candidate) => candidate.mountPath === '/tmp');
    const volume = volumes.find((candidate) => candidate.name === mount?.name);
    const maxUpload = Number(containerConfig('gateway', environment('gateway')).config?.['UPLOAD_MAX_FILE_SIZE_MB']) * 2 ** 20;
    const limit = quantityBytes(volume?.emptyDir?.sizeLimit ?? 'none');
    expect(limit).toBeGreaterThanOrEqual(maxUpload * UPLOADS_IN_FLIGHT_LIMITS.perIp);
    expect(limit).toBeLessThanOrEqual(16 * 2 ** 30);
  });

  it('exposes the gateway alone through an Ingress fit for server-sent events', () => {
    const ingresses = objects.filter((object) => object.kind === 'Ingress');
    expect(ingresses.map((ingress) => ingress.spec.rules[0].http.paths[0].backend.service)).toEqual([{ name: 'gateway', port: { name: 'http' } }]);
    const annotations = ingresses[0]?.metadata.annotations ?? {};
    expect(annotations['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(3600);
  });

  if (production) {
    it('uses external Postgres, RabbitMQ, Redis and S3, with credentials from a Secret made by the operator', () => {
      expect(
        objects
          .filter((object) => object.kind === 'Deployment')
          .map((object) => object.metadata.name)
          .sort(),
      ).toEqual([...PROCESS_NAMES].sort());
      expect(secrets.size).toBe(0);
      for (const name of SERVICE_NAMES) {
        for (const variable of ['DATABASE_URL', 'REDIS_URL']) expect(new URL(environment(name)[variable] ?? '').hostname).toMatch(/\.example$/);
      }
      expect(new URL(environment('media')['S3_ENDPOINT'] ?? '').protocol).toBe('https:');
      const documented = Object.keys(operatorSecret());
      const referenced = objects
        .flatMap(containersOf)
        .flatMap((spec) => spec.env ?? [])
        .flatMap((variable) => variable.valueFrom?.secretKeyRef?.key ?? []);
      expect([...new Set(referenced)].filter((key) => !documented.includes(key))).toEqual([]);
    });
  } else {
    it('runs Postgres, Redis, RabbitMQ, MinIO and mailpit in the cluster, their credentials in Secrets', () => {
      for (const name of ['postgres', 'redis', 'rabbitmq', 'minio', 'mailpit']) {
        expect({ name, deployment: deployment(name) !== undefined, service: find('Service', name) !== undefined }).toEqual({ name, deployment: true, service: true });
      }
      const url = (variable: string) => new URL(environment('identity')[variable] ?? '');
      expect([url('DATABASE_URL').hostname, url('REDIS_URL').hostname, url('AMQP_URL').hostname]).toEqual(['postgres', 'redis', 'rabbitmq']);
    });

    it.each(['postgres', 'redis', 'rabbitmq', 'minio', 'mailpit'])('lets only the pods that use it reach %s in the cluster', (name) => {
      const target = podOf(workload(name) as K8sObject);
      const port = Object.values(target.ports ?? {})[0] ?? 0;
      const users = PROCESS_NAMES.filter((process) => callersOf(name).includes(process));
      expect(users.length).toBeGreaterThan(0);
      for (const process of PROCESS_NAMES) {
        expect({ process, admitted: admits(objects, podOf(workload(process) as K8sObject), target, port) }).toEqual({ process, admitted: users.includes(process) });
      }
      expect(admits(objects, podOf(migrationJobs[0] as K8sObject), target, port)).toBe(name === 'postgres');
      expect(admits(objects, podOf(workload('minio-bucket') as K8sObject), target, port)).toBe(name === 'minio');
      expect(admits(objects, stranger, target, port)).toBe(false);
    });
  }
}
