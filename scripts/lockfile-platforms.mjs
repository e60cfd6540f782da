#!/usr/bin/env node
// The npm registry this project installs from serves only the linux-x64 builds of packages that ship
// per-platform binaries (@swc/core, nx, ...), so npm records only those in package-lock.json, and
// `npm ci` then refuses the lock as "out of sync" (Missing: @swc/core-darwin-arm64@ ...).
// This adds a lock entry for every declared optional platform package that is missing, with the
// os/cpu/libc it is for, so `npm ci` accepts the lock and skips them on other platforms as it should.
// Run after every `npm install` that changes the lock: `node scripts/lockfile-platforms.mjs`.
// Plain JavaScript, never built: npm runs it as postinstall during `npm ci`, before anything exists to build it with.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const lockPath = fileURLToPath(new URL('../package-lock.json', import.meta.url));
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((part) => OS.includes(part));
  const cpu = parts.find((part) => CPU.includes(part)) ?? (parts.includes('gnueabihf') || parts.includes('musleabihf') || parts.includes('eabi') ? 'arm' : undefined);
  if (!os || !cpu) return undefined;
  const libc = os === 'linux' ? (parts.some((part) => part.startsWith('musl')) ? ['musl'] : ['glibc']) : undefined;
  return { os: [os], cpu: [cpu], ...(libc && { libc }) };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path.includes('node_modules/') ? path.slice(0, path.lastIndexOf('node_modules/')) : '';
    const candidates = [`${path ? `${path}/` : ''}node_modules/${name}`, `${base}node_modules/${name}`, `node_modules/${name}`];
    if (candidates.some((candidate) => packages[candidate])) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    packages[`node_modules/${name}`] = {
      version: version.replace(/^[\^~=]/, ''),
      ...(entry.dev && { dev: true }),
      optional: true,
      ...platform,
    };
    added += 1;
  }
}

lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile-platforms: added ${added} platform entr${added === 1 ? 'y' : 'ies'}`);
