import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { PROCESS_NAMES, SERVICE_NAMES } from '@school/config';
import { freePort, scaled } from '@school/testing';
import { assemble, MIGRATE } from '../../scripts/src/docker/assemble.js';
import { imageEnvironment, readRepoFile } from './support/deployment.js';

/**
 * What the Dockerfile's final stage holds, built here without Docker: the assemble step it runs,
 * then the gateway started from that tree alone (production dependencies only), as the image runs it.
 */
const dockerfile = readRepoFile('Dockerfile');
const finalStage = dockerfile.split(/^FROM /m).pop() ?? '';
const out = mkdtempSync(join(tmpdir(), 'image-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('Dockerfile', () => {
  it('installs and builds once for every image, then picks the process by SERVICE', () => {
    const install = dockerfile.search(/^RUN npm ci /m);
    expect(install).toBeGreaterThan(0);
    expect(dockerfile.search(/^ARG SERVICE$/m)).toBeGreaterThan(install);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:(\d*[02468])-\w+-slim$/m);
  });

  it('runs as the node user, in exec form (node receives SIGTERM), with a HEALTHCHECK on /health/live', () => {
    expect(finalStage).toMatch(/^USER node$/m);
    expect(finalStage).toMatch(/^STOPSIGNAL SIGTERM$/m);
    // Source maps off (docs/decisions/0018-memory-footprint.md): NODE_OPTIONS turns them on.
    expect(finalStage).toMatch(/^CMD \["node", "entrypoint.mjs"\]$/m);
    expect(finalStage).toMatch(/^HEALTHCHECK .* CMD \["node", "scripts\/dist\/docker\/healthcheck.js"\]$/m);
    expect(readRepoFile('scripts/src/docker/healthcheck.ts')).toContain('/health/live');
    expect(imageEnvironment('identity')).toEqual(expect.objectContaining({ NODE_ENV: 'production', HOST: '0.0.0.0', SERVICE: 'identity' }));
  });

  it('refuses a SERVICE that is no process', () => {
    expect(() => assemble('nope', join(out, 'nope'), { install: false })).toThrow(/SERVICE must be one of/);
  });

  it('ships the migration job with every service and the migrate script', () => {
    const target = join(out, MIGRATE);
    assemble(MIGRATE, target, { install: false });
    for (const name of SERVICE_NAMES) expect(existsSync(join(target, 'services', name, 'dist', 'migrate.js'))).toBe(true);
    expect(existsSync(join(target, 'scripts', 'dist', 'migrate.js'))).toBe(true);
  });

  describe('the gateway image', () => {
    const target = join(out, 'gateway');
    beforeAll(() => assemble('gateway', target), 300_000);

    it("holds the gateway's dist and no other process's", () => {
      for (const name of PROCESS_NAMES) expect({ name, dist: existsSync(join(target, 'services', name, 'dist')) }).toEqual({ name, dist: name === 'gateway' });
      expect(existsSync(join(target, 'libs', 'config', 'dist'))).toBe(true);
      expect(existsSync(join(target, 'libs', 'prisma', 'dist'))).toBe(false);
    });

    it('holds production dependencies only', () => {
      const modules = readdirSync(join(target, 'node_modules'));
      expect(modules).toContain('fastify');
      for (const dev of ['jest', 'typescript', 'nx', '@swc', 'prisma', '@prisma']) expect({ dev, present: modules.includes(dev) }).toEqual({ dev, present: false });
    });

    it('starts from that tree, passes its HEALTHCHECK, and exits 0 on SIGTERM', async () => {
      const port = String(await freePort());
      // Free ports for everything it binds, metrics included: `npm start` may hold the defaults.
      const metricsPort = String(await freePort());
      const env = {
        PATH: process.env.PATH ?? '',
        ...imageEnvironment('gateway'),
        HOST: '127.0.0.1',
        PORT: port,
        METRICS_PORT: metricsPort,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        // Production requires the secret it signs forwarded client addresses with (ADR 0007).
        FORWARDING_SECRET: 'image-test-forwarding-secret-of-32-chars',
      };
      const child = spawn(process.execPath, ['entrypoint.mjs'], { cwd: target, env, stdio: 'ignore' });
      const exited = once(child, 'exit');
      let healthy = false;
      const giveUpAt = Date.now() + scaled(30_000);
      while (!healthy && child.exitCode === null && Date.now() < giveUpAt) {
        healthy = spawnSync(process.execPath, ['scripts/dist/docker/healthcheck.js'], { cwd: target, env }).status === 0;
        if (!healthy) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(healthy).toBe(true);
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
      expect(spawnSync(process.execPath, ['scripts/dist/docker/healthcheck.js'], { cwd: target, env }).status).toBe(1);
    }, 60_000);
  });
});
