#!/usr/bin/env node
// `npm start`. The supervisor is TypeScript (scripts/src/start.ts), run from its build: this entry
// stays JavaScript because Node before 22.18 cannot run TypeScript, and it builds (swc, about a
// second) the supervisor and the two libraries it reads before anything else, unless --no-build.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const EARLY_BUILDS = ['@school/config', '@school/system-harness', '@school/scripts'];

if (!process.argv.includes('--no-build')) {
  const workspaces = EARLY_BUILDS.flatMap((name) => ['-w', name]);
  const build = spawnSync('npm', ['run', '--silent', 'build', ...workspaces, '--', '--quiet'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (build.status !== 0) {
    console.error(`[start] building ${EARLY_BUILDS.join(', ')} failed`);
    process.exit(build.status ?? 1);
  }
}
await import('./dist/start.js').catch((error) => {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.error(`[start] cannot load the supervisor's build (${error.message}); run without --no-build once`);
  process.exit(1);
});
