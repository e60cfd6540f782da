import type { TcpProxy } from '@school/messaging/testing';
import type { Dependency } from '@school/system-harness';
import type { ProofSystem } from '../proof/system.js';

/** The sizes of a run (`--quick` makes them small). */
export interface FaultOptions {
  quick: boolean;
  /** Guest submissions per burst, and clients sending them. */
  burst: number;
  concurrency: number;
  /** How long a dependency stays cut. */
  outageMs: number;
  smtpRefusalMs: number;
}

/** What a scenario counted, and each check of its invariant with whether it held. */
export interface Outcome {
  counts: Record<string, number>;
  checks: [check: string, ok: boolean][];
}

/** One scenario of `npm run faults`. */
export interface Scenario {
  name: string;
  title: string;
  run(system: ProofSystem, options: FaultOptions, log: (line: string) => void): Promise<Outcome>;
}

/** The proxy in front of `dependency` (faults start their system proxied). */
export function proxyOf(system: ProofSystem, dependency: Dependency): TcpProxy {
  const proxy = system.proxies[dependency];
  if (!proxy) throw new Error(`the system has no proxy in front of ${dependency}: start it with proxied: true`);
  return proxy;
}
