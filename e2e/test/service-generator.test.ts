import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, scaled } from '@school/testing';
import { withAdmin } from '@school/system-harness';

const root = fileURLToPath(new URL('../..', import.meta.url));
const baseDatabaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/**
 * A copy of the repository (every file git tracks or would track) whose node_modules links to this
 * one's packages, and to the copy's own workspaces: the generator runs there, not on this tree.
 */
async function copyOfRepository(): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'generator-'));
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    await mkdir(dirname(join(copy, file)), { recursive: true });
    await copyFile(join(root, file), join(copy, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // deleted in the working tree, not yet in git
    });
  }
  await mkdir(join(copy, 'node_modules', '@school'), { recursive: true });
  for (const entry of await readdir(join(root, 'node_modules'))) {
    if (entry !== '@school') await symlink(join(root, 'node_modules', entry), join(copy, 'node_modules', entry));
  }
  for (const parent of ['libs', 'services']) {
    for (const workspace of await readdir(join(copy, parent))) await linkWorkspace(copy, join(parent, workspace));
  }
  return copy;
}

async function linkWorkspace(copy: string, folder: string): Promise<void> {
  const { name } = JSON.parse(await readFile(join(copy, folder, 'package.json'), 'utf8')) as { name: string };
  await symlink(join(copy, folder), join(copy, 'node_modules', name));
}

const nxEnv = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };
/** The copy's own `nx` (node_modules/.bin), as npx would find it, without npx's start (a second of CPU each). */
const nx = (cwd: string, args: string[]) => execFileSync(join(cwd, 'node_modules', '.bin', 'nx'), args, { cwd, env: nxEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('npx nx g @school/tools:service <name>', () => {
  let copy: string;
  let database: string | undefined;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    copy = await copyOfRepository();
  }, 60_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    if (database) await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
    await rm(copy, { recursive: true, force: true });
  });

  it('creates a service that builds, starts and answers /health/ready, and names it in every list', async () => {
    expect(() => nx(copy, ['g', '@school/tools:service', 'Bad_Name', '--skipInstall'])).toThrow(/not a kebab-case service name/);
    expect(() => nx(copy, ['g', '@school/tools:service', 'identity', '--skipInstall'])).toThrow(/exists already/);
    nx(copy, ['g', '@school/tools:service', 'billing', '--skipInstall']);
    await linkWorkspace(copy, 'services/billing');

    const read = (path: string) => readFile(join(copy, path), 'utf8');
    expect(await read('services/billing/src/main.ts')).toContain("name: 'billing'");
    expect(JSON.parse(await read('services/billing/package.json'))).toMatchObject({
      scripts: { lint: 'eslint .', 'test:medium': expect.stringContaining('JEST_LANE=medium') },
      nx: { tags: ['type:service'] },
    });
    expect(await read('libs/config/src/topology.ts')).toContain("billing: { port: 3006, schema: 'billing' },");
    expect(await read('docker-compose.yml')).toMatch(
      / {2}billing:\n {4}<<: \*app\n {4}build: \{ <<: \*build, args: \{ SERVICE: billing \} \}\n[\s\S]*BILLING_URL: http:\/\/billing:3006\n[\s\S]* {6}billing: \{ condition: service_healthy \}/,
    );
    expect(await read('deploy/k8s/overlays/prod/kustomization.yaml')).toContain(
      '- { name: school-commerce-billing, newName: registry.example.com/school-commerce-billing, newTag: "1.0.0" }',
    );
    expect(await read('deploy/k8s/overlays/dev/kustomization.yaml')).toContain('- { name: school-commerce-billing, newTag: dev }');
    expect(await read('.env.example')).toContain('#BILLING_PORT=3006');
    expect(await read('e2e/package.json')).toContain('"@school/billing": "*"');
    // The configuration table of docs/configuration.md and .env.example still name the same variables, and compose still gives every process what it reads (run in the copy).
    execFileSync(process.execPath, ['--experimental-vm-modules', join(copy, 'node_modules/jest/bin/jest.js'), 'test/configuration.test.ts', 'test/compose.test.ts'], {
      cwd: join(copy, 'e2e'),
      env: process.env,
      stdio: 'pipe',
    });

    nx(copy, ['run', '@school/billing:build', '--outputStyle=static']);
    // Its medium layer (docs/testing.md): the kit and the example the generator wrote pass as written.
    nx(copy, ['run', '@school/billing:test:medium', '--outputStyle=static']);

    database = `generator_${randomBytes(4).toString('hex')}`;
    await withAdmin((client) => client.query(`CREATE DATABASE ${database}`));
    const databaseUrl = new URL(baseDatabaseUrl);
    databaseUrl.pathname = `/${database}`;
    const port = await freePort();
    const logs: string[] = [];
    child = spawn(process.execPath, [join(copy, 'services/billing/dist/main.js')], {
      cwd: copy,
      env: { ...process.env, NODE_ENV: 'test', PORT: String(port), DATABASE_URL: databaseUrl.toString(), DOTENV_PATH: '/dev/null' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => logs.push(chunk.toString()));

    const deadline = Date.now() + scaled(45_000);
    let ready: Response | undefined;
    while (Date.now() < deadline && child.exitCode === null) {
      ready = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined);
      if (ready?.ok) break;
      await sleep(300);
    }
    if (!ready?.ok) throw new Error(`billing did not become ready:\n${logs.join('').slice(-3000)}`);
    const body = (await ready.json()) as { data: { checks: Record<string, string> } };
    expect(body.data.checks).toMatchObject({ database: 'up', redis: 'up' });
    // Its (still empty) part of the API, for the gateway to merge.
    const part = await fetch(`http://127.0.0.1:${port}/openapi.json`);
    expect(part.status).toBe(200);
    expect(await part.json()).toMatchObject({ openapi: '3.1.0', info: { title: 'billing' }, paths: {} });
  }, 240_000);
});
