// What every bench script needs: a database of its own, child processes that print their
// warnings with a prefix and are stopped at the end, and a wait for a URL to answer.
import { type ChildProcess, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { PROCESS_NAMES, type ProcessName } from '@school/config';
import { type GroupProcessOptions, ProcessGroup, type RunningSystem, startSystem, type SystemOptions } from '@school/system-harness';
import { processDefaults } from '@school/system-harness/processes';
import pg from 'pg';

export const SERVER_DATABASE_URL = process.env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export async function sql(connectionString: string, text: string, values: unknown[] = []): Promise<any[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A fresh database `<prefix>_<random>` on the server of DATABASE_URL; `drop()` removes it. */
export { type FreshDatabase, freshDatabase } from '@school/system-harness';

/**
 * The whole system as every test and tool starts it (@school/system-harness: a database, Redis
 * database, broker names and folders of its own, free ports), run as production runs it, which is
 * what a benchmark measures. `env`: what production requires (secrets) and the bench's own settings;
 * `processEnv`: variables of one process only (e.g. NODE_OPTIONS with `--cpu-prof`).
 */
export async function startProductionSystem(label: string, env: Record<string, string>, processEnv?: SystemOptions['processEnv']): Promise<RunningSystem> {
  const system = await startSystem({
    label,
    owaspPasswordHashing: true,
    ...(processEnv && { processEnv }),
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      // The gateway's own default (services/gateway/src/config.ts), not the harness's shorter test bound.
      UPSTREAM_TIMEOUT_MS: '30000',
      // Production refuses development secrets.
      OTP_SECRET: randomBytes(32).toString('hex'),
      SIGNED_URL_SECRET: randomBytes(32).toString('hex'),
      FORWARDING_SECRET: randomBytes(32).toString('hex'),
      MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      ...env,
    },
  });
  systems.push(system);
  return system;
}

const processes = new ProcessGroup();
/** The systems started here: cpuTimes() names their processes too. */
const systems: RunningSystem[] = [];

/**
 * A node process whose stderr is printed with its name; stopped by stopAll(). `logFile`: its stdout
 * (the logs) goes to that file, as a log collector would take it, instead of being dropped;
 * `nodeOptions`: flags for node itself (e.g. `--cpu-prof`).
 */
export function startProcess(name: string, script: string, env: NodeJS.ProcessEnv, options: GroupProcessOptions = {}): ChildProcess {
  const base = { ...process.env, LOG_LEVEL: 'warn', METRICS_PORT: '0', ...env };
  // A process of the topology runs with its defaults (runtimeEnv, identity's pool), as under npm start.
  const defaults = isProcessName(name) ? processDefaults(name, base) : {};
  return processes.start(name, script, { ...base, ...defaults }, options);
}

const isProcessName = (name: string): name is ProcessName => (PROCESS_NAMES as readonly string[]).includes(name);

const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/**
 * CPU time (ms) so far of this process, the children and every process whose command is one of
 * `commands`, by name, and of the processes `extra` names by pid (a database's own backends, say)
 * (Linux /proc; undefined elsewhere), and of each started child's main thread as `<name> main` (its
 * JavaScript: libuv's pool, where identity's argon2id runs, and V8's helper threads are the rest).
 * Two readings around a load say where its cost goes.
 */
export type CpuTimes = Record<string, number>;

/** utime + stime (ms) of a /proc stat line. */
function statCpuMs(stat: string): number {
  const [utime = 0, stime = 0] = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .slice(11, 13)
    .map(Number);
  return ((utime + stime) * 1000) / clockTicks;
}

export function cpuTimes(commands = ['postgres', 'redis-server'], extra: Record<number, string> = {}): CpuTimes | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const names = new Map<number | undefined, string>([
    [process.pid, 'bench'],
    ...processes.processes.map(({ name, child }): [number | undefined, string] => [child.pid, name]),
    ...systems.flatMap((system) => Object.entries(system.pids()).map(([name, pid]): [number | undefined, string] => [pid, name])),
    ...Object.entries(extra).map(([pid, name]): [number, string] => [Number(pid), name]),
  ]);
  const started = new Set([...processes.processes.map(({ child }) => child.pid), ...systems.flatMap((system) => Object.values(system.pids()))]);
  const times: CpuTimes = {};
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const name = names.get(Number(entry)) ?? (commands.includes(command) ? command : undefined);
    if (!name) continue;
    times[name] = (times[name] ?? 0) + statCpuMs(stat);
    if (!started.has(Number(entry))) continue;
    try {
      times[`${name} main`] = (times[`${name} main`] ?? 0) + statCpuMs(readFileSync(`/proc/${entry}/task/${entry}/stat`, 'utf8'));
    } catch {
      // gone meanwhile
    }
  }
  return times;
}

/** `CPU ms per request: a 0.12, b 0.05` from two cpuTimes() readings around `requests` requests. */
export function cpuPerRequest(before: CpuTimes | undefined, after: CpuTimes | undefined, requests: number): string {
  if (!before || !after || requests === 0) return '';
  const perRequest = Object.entries(after)
    .map(([name, ms]): [string, number] => [name, (ms - (before[name] ?? 0)) / requests])
    .filter(([, ms]) => ms >= 0.005)
    .sort((a, b) => b[1] - a[1]);
  return `CPU ms per request: ${perRequest.map(([name, ms]) => `${name} ${ms.toFixed(3)}`).join(', ')}`;
}

/** A process's resident memory in MB (Linux /proc: VmRSS now, VmHWM its peak); undefined when it is gone or there is no /proc. */
export function residentMb(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1];
  return kb === undefined ? undefined : Number(kb) / 1024;
}

/** Stops one started process and forgets it, so waitFor() no longer counts its exit as a failure. */
export const stopProcess = (child: ChildProcess): Promise<void> => processes.stop(child);

export const stopAll = (): Promise<void> => processes.stopAll();

/**
 * Waits until `url` answers 200. Fails at once when a started process has exited; otherwise after
 * `boundMs`, stretched by TEST_TIME_SCALE (or the machine's load), so a slow machine is no failure.
 */
export const waitFor = (url: string, boundMs?: number): Promise<void> => processes.waitFor(url, boundMs);

/**
 * One figure of a benchmark, printed as a `RESULT <json>` line that `npm run bench` collects into
 * bench/RESULTS.md: the product's number, the ceiling or peer measured in the same run, and the target.
 * `target` is `{ op: '>=' | '<=' | '<', value }` against `ratio` (or against `product` when there is no ceiling).
 */
export interface Figure {
  figure: string;
  product: number;
  ceiling?: number;
  unit?: string;
  target?: { op: '>=' | '<=' | '<'; value: number };
  note?: string;
}

export function reportResult({ figure, product, ceiling, unit, target, note }: Figure): Figure & { ratio?: number; met?: boolean } {
  const ratio = ceiling === undefined ? undefined : product / ceiling;
  const measured = ratio ?? product;
  const met = target === undefined ? undefined : { '>=': measured >= target.value, '<=': measured <= target.value, '<': measured < target.value }[target.op];
  const result = { figure, product, ceiling, unit, ratio, target, met, note };
  console.log(`RESULT ${JSON.stringify(result)}`);
  return result;
}

/** Runs a bench's `main`, reports its failure as `bench/<name>: <message>` with exit code 1, and always runs `stop`. */
export async function runBench(name: string, main: () => Promise<void>, stop: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    console.error(`bench/${name}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  } finally {
    await stop();
  }
}
