import { parse } from 'yaml';
import { spawnSync } from 'node:child_process';
import { PROCESS_NAMES } from '@school/config';
import { CHART, SECRET } from '../../deploy/k8s/generate.mjs';
import { helm } from '../../deploy/helm/helm.mjs';
import { readRepoFile, root } from './support/deployment.js';
import { containersOf, itDeploysTheSystem, type K8sObject, parseObjects } from './support/manifests.js';

/** The Helm chart deploy/helm/school-commerce: `helm lint --strict` and `helm template` for each values file, every object checked. */
const VALUES_FILES = { dev: 'values.yaml', prod: 'values-prod.yaml' } as const;

function template(...args: string[]): K8sObject[] {
  const result = helm(['template', 'school-commerce', CHART, ...args]);
  if (result.status !== 0) throw new Error(`helm template ${args.join(' ')}: ${result.stderr}`);
  return parseObjects(result.stdout);
}

const valuesOf = (environment: keyof typeof VALUES_FILES) => ['--values', `${CHART}/${VALUES_FILES[environment]}`];
const lint = (...args: string[]) => helm(['lint', '--strict', CHART, ...args]);
const find = (objects: K8sObject[], kind: string, name: string) => objects.find((object) => object.kind === kind && object.metadata.name === name);

describe.each(Object.keys(VALUES_FILES) as (keyof typeof VALUES_FILES)[])('deploy/helm/school-commerce with %s values', (environment) => {
  it('passes helm lint --strict', () => {
    const result = lint(...valuesOf(environment));
    expect({ status: result.status, output: result.stdout + result.stderr }).toEqual({ status: 0, output: expect.stringContaining('0 chart(s) failed') });
  });

  itDeploysTheSystem({ objects: template(...valuesOf(environment)), production: environment === 'prod' });
});

describe('deploy/helm/school-commerce', () => {
  it('refuses values its schema does not allow: a wrong type, a credential in the ConfigMap, an unknown key', () => {
    for (const [set, error] of [
      ['replicas=two', 'replicas: Invalid type'],
      ['config.values.OTP_SECRET=x', 'config.values'],
      ['ingres.enabled=false', 'Additional property ingres is not allowed'],
    ] as const) {
      const result = lint('--set', set);
      expect({ set, status: result.status, output: result.stdout + result.stderr }).toEqual({ set, status: 1, output: expect.stringContaining(error) });
    }
  });

  it('with existingSecret, makes no Secret of its own and takes every credential from the named one', () => {
    const objects = template('--set', 'existingSecret=school-commerce-credentials');
    expect(find(objects, 'Secret', SECRET)).toBeUndefined();
    const references = objects
      .filter((object) => [...PROCESS_NAMES, 'migrate'].includes(object.metadata.labels?.['app.kubernetes.io/name'] ?? ''))
      .flatMap(containersOf)
      .flatMap((spec) => spec.env ?? [])
      .flatMap((variable) => variable.valueFrom?.secretKeyRef?.name ?? []);
    expect(references.length).toBeGreaterThan(PROCESS_NAMES.length);
    expect([...new Set(references)]).toEqual(['school-commerce-credentials']);
  });

  it.each(['postgres', 'redis', 'rabbitmq', 'minio', 'mailpit'])('runs %s in the cluster only while it is enabled', (name) => {
    expect(find(template(), 'Deployment', name)).toBeDefined();
    const without = template('--set', `${name}.enabled=false`);
    expect(without.filter((object) => object.metadata.labels?.['app.kubernetes.io/name'] === name)).toEqual([]);
    expect(template(...valuesOf('prod')).filter((object) => object.metadata.labels?.['app.kubernetes.io/name'] === name)).toEqual([]);
  });

  it('names the migration Job after the release revision, so an upgrade migrates again (one Job named migrate for the Kustomize base)', () => {
    const jobs = (objects: K8sObject[]) =>
      objects.filter((object) => object.kind === 'Job' && object.metadata.labels?.['app.kubernetes.io/name'] === 'migrate').map((job) => job.metadata.name);
    expect(jobs(template())).toEqual(['migrate-1']);
    expect(jobs(template('--set', 'migrate.perRevision=false'))).toEqual(['migrate']);
  });

  it('leaves the replica count to the autoscaler when there is one, so an upgrade does not reset it', () => {
    const replicas = (objects: K8sObject[]) => [
      ...new Set(
        objects.filter((object) => object.kind === 'Deployment' && PROCESS_NAMES.includes(object.metadata.name as never)).map((object) => object.spec.replicas as unknown),
      ),
    ];
    expect(replicas(template(...valuesOf('prod')))).toEqual([undefined]);
    expect(replicas(template('--set', 'autoscaling.enabled=false', '--set', 'replicas=3'))).toEqual([3]);
    expect(template('--set', 'autoscaling.enabled=false').filter((object) => object.kind === 'HorizontalPodAutoscaler')).toEqual([]);
  });

  it('ships the alert rules as a PrometheusRule when monitoring.prometheusRule.enabled (prod values), and none otherwise', () => {
    const rules = parse(readRepoFile('deploy/helm/school-commerce/files/alerts.yaml')) as { groups: { rules: { alert: string; expr: string; labels: { severity: string } }[] }[] };
    const rule = find(template(...valuesOf('prod')), 'PrometheusRule', 'school-commerce');
    expect(rule?.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(rule?.metadata.labels).toEqual(expect.objectContaining({ release: 'prometheus' }));
    expect(rule?.spec).toEqual(rules);
    for (const { alert, expr, labels } of rules.groups.flatMap((group) => group.rules))
      expect({ alert, expr: typeof expr, severity: labels.severity }).toEqual({ alert, expr: 'string', severity: expect.stringMatching(/^(warning|critical)$/) });
    expect(template().filter((object) => object.kind === 'PrometheusRule')).toEqual([]);
  });

  it('makes NetworkPolicies only while networkPolicy.enabled, a value the schema and the README document', () => {
    const policies = (objects: K8sObject[]) => objects.filter((object) => object.kind === 'NetworkPolicy').map((object) => object.metadata.name);
    expect(policies(template()).sort()).toEqual([...PROCESS_NAMES, 'migrate', 'postgres', 'redis', 'rabbitmq', 'minio', 'minio-bucket', 'mailpit'].sort());
    expect(policies(template(...valuesOf('prod'))).sort()).toEqual([...PROCESS_NAMES, 'migrate'].sort());
    expect(policies(template('--set', 'networkPolicy.enabled=false'))).toEqual([]);
    const schema = JSON.parse(readRepoFile('deploy/helm/school-commerce/values.schema.json')) as { properties: Record<string, { properties?: Record<string, unknown> }> };
    expect(Object.keys(schema.properties['networkPolicy']?.properties ?? {})).toEqual(expect.arrayContaining(['enabled', 'gatewayFrom', 'metricsFrom']));
    expect(readRepoFile('deploy/helm/school-commerce/README.md')).toContain('`networkPolicy.enabled`');
  });

  it("generates the infrastructure's passwords (none in the values), the same in its Secret and in the processes' addresses", () => {
    const values = parse(readRepoFile(`${CHART.slice(root.length)}/values.yaml`)) as Record<string, Record<string, unknown>>;
    expect([values['postgres']?.['password'], values['redis']?.['password'], values['rabbitmq']?.['password'], values['minio']?.['rootPassword']]).toEqual(['', '', '', '']);
    const secretOf = (objects: K8sObject[], name: string) =>
      Object.fromEntries(Object.entries(find(objects, 'Secret', name)?.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
    const [first, second] = [template(), template()];
    const infrastructure = secretOf(first, 'school-commerce-infrastructure');
    for (const key of ['POSTGRES_PASSWORD', 'REDIS_PASSWORD', 'RABBITMQ_DEFAULT_PASS', 'MINIO_ROOT_PASSWORD']) {
      expect({ key, password: infrastructure[key] }).toEqual({ key, password: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
      expect({ key, differs: secretOf(second, 'school-commerce-infrastructure')[key] !== infrastructure[key] }).toEqual({ key, differs: true });
    }
    const processes = secretOf(first, SECRET);
    expect(new URL(processes['DATABASE_URL'] ?? '').password).toBe(infrastructure['POSTGRES_PASSWORD']);
    expect(new URL(processes['REDIS_URL'] ?? '').password).toBe(infrastructure['REDIS_PASSWORD']);
    expect(new URL(processes['AMQP_URL'] ?? '').password).toBe(infrastructure['RABBITMQ_DEFAULT_PASS']);
    expect(processes['S3_SECRET_KEY']).toBe(infrastructure['MINIO_ROOT_PASSWORD']);
    const chosen = template('--set', 'postgres.password=chosen-by-the-operator');
    expect(secretOf(chosen, 'school-commerce-infrastructure')['POSTGRES_PASSWORD']).toBe('chosen-by-the-operator');
    expect(new URL(secretOf(chosen, SECRET)['DATABASE_URL'] ?? '').password).toBe('chosen-by-the-operator');
    // An upgrade keeps what the first install generated: lookup reads the Secret back before generating.
    expect(readRepoFile('deploy/helm/school-commerce/templates/_helpers.tpl')).toMatch(/lookup "v1" "Secret" \.Release\.Namespace "school-commerce-infrastructure"/);
  });

  it('refuses an unpinned infrastructure image', () => {
    for (const set of ['redis.image=redis:latest', 'redis.image=redis']) {
      const result = lint('--set', set);
      expect({ set, status: result.status, output: result.stdout + result.stderr }).toEqual({ set, status: 1, output: expect.stringContaining('redis.image') });
    }
  });

  it("keeps development settings out of production's ConfigMap", () => {
    const config = find(template(...valuesOf('prod')), 'ConfigMap', 'school-commerce-config')?.data ?? {};
    expect(Object.entries(config).filter(([, value]) => /localtest\.me|minio|development|debug/.test(value))).toEqual([]);
  });
});

describe('the Kustomize overlays, rendered from the chart', () => {
  /** Kustomize's generated ConfigMap and Secret carry a content hash; the chart's Job a revision; only Kustomize makes the Namespace. */
  function normalized(objects: K8sObject[]) {
    const text = JSON.stringify(objects.filter((object) => object.kind !== 'Namespace' && object.kind !== 'PrometheusRule'))
      .replace(/"(school-commerce-(?:config|secrets|infrastructure))-[a-z0-9]{10}"/g, '"$1"')
      .replace(/"migrate-1"/g, '"migrate"')
      .replace(/,?"namespace":"[a-z-]+"/g, '');
    return JSON.parse(text) as K8sObject[];
  }
  const kustomize = (overlay: string) => {
    const result = spawnSync('kubectl', ['kustomize', `${root}/deploy/k8s/overlays/${overlay}`], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`kubectl kustomize ${overlay}: ${result.error?.message ?? result.stderr}`);
    return normalized(parseObjects(result.stdout));
  };
  const ids = (objects: K8sObject[]) => objects.map((object) => `${object.kind}/${object.metadata.name}`).sort();

  it.each(Object.keys(VALUES_FILES) as (keyof typeof VALUES_FILES)[])('%s: the same objects, and the same pods for every process', (environment) => {
    const fromChart = normalized(template(...valuesOf(environment)));
    const fromKustomize = kustomize(environment);
    expect(ids(fromKustomize)).toEqual(ids(fromChart));
    for (const name of [...PROCESS_NAMES, 'migrate']) {
      const pod = (objects: K8sObject[]) => objects.find((object) => ['Deployment', 'Job'].includes(object.kind) && object.metadata.name === name)?.spec.template.spec;
      expect({ name, pod: pod(fromKustomize) }).toEqual({ name, pod: pod(fromChart) });
    }
  });
});
