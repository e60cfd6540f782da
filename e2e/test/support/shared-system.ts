import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ProcessName, SERVICE_NAMES, type ServiceName } from '@school/config';
import { type RunningSystem, startSystem, type SystemView } from '@school/system-harness';
import { scaled } from '@school/testing';

/**
 * One system for every suite of a jest run that needs no system of its own: jest's global setup
 * starts it (without waiting for it, so suites that need none run meanwhile), writes where it is to
 * a file named in SHARED_SYSTEM_FILE, and its global teardown stops it. Suites sharing it keep to
 * data of their own (unique emails, names, devices, client addresses) and never stop a process.
 */

/** Every process of the shared system: one trusted proxy, so a suite may speak from addresses of its own. */
export const SHARED_SYSTEM_ENV = { TRUST_PROXY: '1' } as const;

/**
 * How long identity's mfaToken lives on the shared system: the contract's 5 minutes shortened, so
 * two-step-sign-in.test.ts waits for one to expire; no other suite signs in in two steps.
 */
export const SHARED_MFA_TOKEN_TTL_SECONDS = Math.ceil(scaled(6_000) / 1000);

const STATE_VARIABLE = 'SHARED_SYSTEM_FILE';

/** The processes a suite may start another replica of beside the shared system (sessions-devices.test.ts). */
const REPLICA_NAMES = ['gateway', 'identity'] as const;
type ReplicaName = (typeof REPLICA_NAMES)[number];

type State =
  | {
      ready: true;
      gatewayUrl: string;
      gatewayMetricsUrl: string;
      brokerPrefix: string;
      mailDir: string;
      internalHosts: string[];
      serviceUrls: Record<ServiceName, string>;
      logDir: string;
      databaseUrl: string;
      environments: Record<ReplicaName, NodeJS.ProcessEnv>;
    }
  | { ready: false; error: string };

export interface SharedSystemHost {
  /** Stops the system once its start has ended, and removes its files. */
  stop(): Promise<void>;
}

/** Starts the shared system in the background; the state file appears once it is ready or has failed. */
export async function hostSharedSystem(): Promise<SharedSystemHost> {
  const folder = await mkdtemp(join(tmpdir(), 'e2e-shared-'));
  const stateFile = join(folder, 'state.json');
  process.env[STATE_VARIABLE] = stateFile;
  const logDir = join(folder, 'logs');
  await mkdir(logDir);
  const started = startSystem({ env: SHARED_SYSTEM_ENV, processEnv: { identity: { MFA_TOKEN_TTL_SECONDS: String(SHARED_MFA_TOKEN_TTL_SECONDS) } }, logDir }).then(
    async (system) => {
      await publish(stateFile, stateOf(system, logDir));
      return system;
    },
    async (error: Error) => {
      await publish(stateFile, { ready: false, error: error.message });
      return undefined;
    },
  );
  return {
    async stop() {
      await (await started)?.shutdown();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

function stateOf(system: RunningSystem, logDir: string): State {
  const { gatewayUrl, gatewayMetricsUrl, brokerPrefix, mailDir, internalHosts, databaseUrl } = system;
  const serviceUrls = Object.fromEntries(SERVICE_NAMES.map((name) => [name, system.serviceUrl(name)])) as Record<ServiceName, string>;
  const environments = Object.fromEntries(REPLICA_NAMES.map((name) => [name, system.environment(name)])) as Record<ReplicaName, NodeJS.ProcessEnv>;
  return { ready: true, gatewayUrl, gatewayMetricsUrl, brokerPrefix, mailDir, internalHosts, serviceUrls, logDir, databaseUrl, environments };
}

/** Written whole, then renamed: a reader never sees half a file. */
async function publish(stateFile: string, state: State): Promise<void> {
  await writeFile(`${stateFile}.partial`, JSON.stringify(state));
  await rename(`${stateFile}.partial`, stateFile);
}

/**
 * The run's shared system, once it is ready. Waits on the state file the global setup writes when
 * the start has ended either way (the start itself is bounded, see startSystem); throws its failure.
 */
export async function sharedSystem(): Promise<SystemView> {
  const state = await readyState();
  return {
    gatewayUrl: state.gatewayUrl,
    gatewayMetricsUrl: state.gatewayMetricsUrl,
    brokerPrefix: state.brokerPrefix,
    mailDir: state.mailDir,
    internalHosts: state.internalHosts,
    serviceUrl: (name) => state.serviceUrls[name],
    logs: (name: ProcessName) => readFileSync(join(state.logDir, `${name}.log`), 'utf8'),
  };
}

/** The shared system's database (every service's schema), for suites that read what the services wrote. */
export async function sharedSystemDatabaseUrl(): Promise<string> {
  return (await readyState()).databaseUrl;
}

/** The variables a process of the shared system was started with, to start another replica of it beside the system. */
export async function sharedSystemEnvironment(name: ReplicaName): Promise<NodeJS.ProcessEnv> {
  return (await readyState()).environments[name];
}

async function readyState(): Promise<Extract<State, { ready: true }>> {
  const stateFile = process.env[STATE_VARIABLE];
  if (!stateFile) throw new Error(`${STATE_VARIABLE} is not set: run the e2e suites with e2e/jest.config.js, whose global setup starts the shared system`);
  let text: string | undefined;
  while ((text = await readFile(stateFile, 'utf8').catch(() => undefined)) === undefined) await sleep(200);
  const state = JSON.parse(text) as State;
  if (!state.ready) throw new Error(`the shared system did not start: ${state.error}`);
  return state;
}
