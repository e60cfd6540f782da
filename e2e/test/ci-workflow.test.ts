import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { amqpEnv, databaseEnv, parseConfig, redisEnv } from '@school/config';
import { parse } from 'yaml';
import { readRepoFile, root } from './support/deployment.js';

/** .github/workflows/ci.yml: valid for GitHub (action-validator's schema), and what the card asks of it. */
const WORKFLOW = '.github/workflows/ci.yml';
const validator = join(root, 'node_modules/.bin/action-validator');
const validate = (path: string) => spawnSync(validator, [path], { encoding: 'utf8' });

interface Workflow {
  on: { pull_request?: unknown; push?: { branches?: string[] } };
  jobs: Record<
    string,
    { services?: Record<string, { image: string; ports?: string[]; options?: string }>; steps: { uses?: string; run?: string; with?: Record<string, unknown> }[] }
  >;
}
const workflow = parse(readRepoFile(WORKFLOW)) as Workflow;
const job = Object.values(workflow.jobs)[0];

describe(WORKFLOW, () => {
  it('passes action-validator, which refuses a broken workflow', () => {
    const result = validate(join(root, WORKFLOW));
    expect({ status: result.status, output: result.stdout + result.stderr }).toEqual({ status: 0, output: '' });
    const dir = mkdtempSync(join(tmpdir(), 'workflow-'));
    try {
      writeFileSync(join(dir, 'broken.yml'), readRepoFile(WORKFLOW).replace('runs-on:', 'run-on:'));
      expect(validate(join(dir, 'broken.yml')).status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs on pull requests and on main', () => {
    expect(workflow.on.pull_request).toBeDefined();
    expect(workflow.on.push?.branches).toEqual(['main']);
  });

  it('starts Postgres, Redis and RabbitMQ where the default URLs point, each awaited by a health check', () => {
    const defaults = parseConfig({ ...databaseEnv, ...redisEnv, ...amqpEnv }, {});
    const services = job?.services ?? {};
    for (const [name, url] of [
      ['postgres', defaults.DATABASE_URL],
      ['redis', defaults.REDIS_URL],
      ['rabbitmq', defaults.AMQP_URL],
    ] as const) {
      const port = new URL(url).port;
      expect({ name, ports: services[name]?.ports, health: services[name]?.options?.includes('--health-cmd') }).toEqual({ name, ports: [`${port}:${port}`], health: true });
    }
  });

  it('runs the npm test of .ci/run, for the projects a change affects against the base branch, after npm ci with the full history', () => {
    const steps = job?.steps ?? [];
    const index = (match: (step: (typeof steps)[number]) => boolean) => steps.findIndex(match);
    const checkout = steps.find((step) => step.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.['fetch-depth']).toBe(0);
    const install = index((step) => step.run === 'npm ci');
    const base = index((step) => step.uses?.startsWith('nrwl/nx-set-shas@') === true);
    const affected = index((step) => step.run === 'npm test -- --affected');
    expect(install).toBeGreaterThanOrEqual(0);
    expect(base).toBeGreaterThan(install);
    expect(affected).toBeGreaterThan(base);
    expect(steps[base]?.with?.['main-branch-name']).toBe('main');
    expect(readRepoFile('.ci/run')).toMatch(/^npm test$/m);
  });
});
