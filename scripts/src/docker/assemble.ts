// Dockerfile step: `node scripts/dist/docker/assemble.js <SERVICE> <out> [--no-install]` after the build.
// Copies into <out> only what one process runs (its dist and prisma folder, those of the workspace
// libraries it depends on), an entry point, the health check, and installs that process's
// production dependencies from the lock file. SERVICE `migrate` is the migration job: every service.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROCESS_NAMES, SERVICE_NAMES } from '@school/config';

export const MIGRATE = 'migrate';
export const IMAGE_TARGETS: string[] = [...PROCESS_NAMES, MIGRATE];
/** The built scripts an image runs besides its process: the migration job's, and the health check. */
const MIGRATE_SCRIPT = 'scripts/dist/migrate.js';
const HEALTHCHECK_SCRIPT = 'scripts/dist/docker/healthcheck.js';

interface Workspace {
  dir: string;
  manifest: { name: string; dependencies?: Record<string, string> };
}
/** What a shipped workspace contributes besides its package.json. */
const SHIPPED_PARTS = ['dist', 'prisma', 'assets'];
const ROOT_FILES = ['package-lock.json', '.npmrc'];

const root = fileURLToPath(new URL('../../..', import.meta.url));

function workspaces(): Workspace[] {
  const dirs = ['libs', 'services'].flatMap((parent) => readdirSync(join(root, parent)).map((name) => `${parent}/${name}`));
  return [...dirs, 'e2e']
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Workspace['manifest'] }));
}

/** The workspaces a target runs: its process (every service for the migration job) and their workspace dependencies. */
export function shippedWorkspaces(target: string | undefined): string[] {
  if (target === undefined || !IMAGE_TARGETS.includes(target)) throw new Error(`SERVICE must be one of ${IMAGE_TARGETS.join(', ')} (got "${target ?? ''}")`);
  const all = workspaces();
  const byName = new Map(all.map((workspace) => [workspace.manifest.name, workspace]));
  const start = target === MIGRATE ? SERVICE_NAMES : [target];
  const pending = start.map((name) => all.find((workspace) => workspace.dir === `services/${name}`)).filter((workspace) => workspace !== undefined);
  const shipped = new Map<string, Workspace>();
  for (let workspace = pending.pop(); workspace; workspace = pending.pop()) {
    if (shipped.has(workspace.dir)) continue;
    shipped.set(workspace.dir, workspace);
    for (const dependency of Object.keys(workspace.manifest.dependencies ?? {})) {
      const local = byName.get(dependency);
      if (local) pending.push(local);
    }
  }
  return [...shipped.keys()].sort();
}

/** The repository's manifest reduced to the shipped workspaces, without its tooling. */
function rootManifest(dirs: string[]): Record<string, unknown> {
  const { devDependencies: _tools, scripts: _scripts, ...manifest } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  return { ...manifest, workspaces: dirs };
}

export function entryPoint(target: string): string {
  return target === MIGRATE ? `./${MIGRATE_SCRIPT}` : `./services/${target}/dist/main.js`;
}

function copy(relative: string, out: string): void {
  const from = join(root, relative);
  if (!existsSync(from)) return;
  mkdirSync(dirname(join(out, relative)), { recursive: true });
  cpSync(from, join(out, relative), { recursive: true });
}

export function assemble(target: string | undefined, out: string, { install = true }: { install?: boolean } = {}): void {
  const dirs = shippedWorkspaces(target);
  for (const file of ROOT_FILES) copy(file, out);
  writeFileSync(join(out, 'package.json'), `${JSON.stringify(rootManifest(dirs), null, 2)}\n`);
  for (const dir of dirs) for (const part of ['package.json', ...SHIPPED_PARTS]) copy(`${dir}/${part}`, out);
  if (target === MIGRATE) copy(MIGRATE_SCRIPT, out);
  copy(HEALTHCHECK_SCRIPT, out);
  writeFileSync(join(out, 'entrypoint.mjs'), `import '${entryPoint(target as string)}';\n`);
  if (!install) return;
  // The lock pins every version; npm drops what the shipped workspaces do not need.
  const npm = spawnSync('npm', ['install', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-save', '--no-audit', '--no-fund'], { cwd: out, stdio: 'inherit' });
  if (npm.status !== 0) throw new Error(`npm ci for ${target} failed`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [target, out, ...flags] = process.argv.slice(2);
  try {
    if (!out) throw new Error('usage: assemble.js <SERVICE> <out> [--no-install]');
    assemble(target, out, { install: !flags.includes('--no-install') });
  } catch (error) {
    console.error(`[assemble] ${(error as Error).message}`);
    process.exit(1);
  }
}
