import fc from 'fast-check';
import type { RunningSystem } from '@school/system-harness';
import { materialize, type WireRequest } from './materialize.js';
import { type OpenApiDocument, type Operation, operationsOf, SchemaResolver } from './openapi.js';
import { judge, type Finding } from './oracle.js';
import { type Plan, planArbitrary } from './plans.js';
import { Pools } from './pools.js';
import { Principals, randomAddress } from './principals.js';
import { closeConnections, send } from './send.js';

export interface FuzzOptions {
  seed: number;
  /** At least this many requests; every operation gets the same share. */
  requests: number;
  timeoutMs?: number;
  /** Progress lines (every few hundred requests). */
  progress?: (line: string) => void;
}

export interface Failure {
  index: number;
  operation: string;
  plan: Pick<Plan, 'kind' | 'principal' | 'mutation'>;
  request: { method: string; target: string; headers: Record<string, string>; body?: string };
  status: number;
  findings: Finding[];
}

export interface FuzzReport {
  seed: number;
  requests: number;
  operations: number;
  /** Per operation id, how many answers of each status. */
  statuses: Map<string, Map<number, number>>;
  failures: Failure[];
  elapsedMs: number;
}

/** Operations whose success ends or changes the sessions of the fuzzer's own accounts. */
const SESSION_ENDING = /\/(logout|password\/(set|reset))$/;
const EXCERPT = 400;

/**
 * Drives every operation of the gateway's `/api/openapi.json` with generated valid, boundary and
 * invalid requests (fast-check, replayable from `seed`), sent one after another so a seed replays
 * the same run, and judges every answer (oracle.ts).
 */
export async function fuzz(system: RunningSystem, options: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const base = new URL(system.gatewayUrl);
  const document = (await (await fetch(`${system.gatewayUrl}/api/openapi.json`)).json()) as OpenApiDocument;
  const resolver = new SchemaResolver(document);
  const operations = operationsOf(document);
  if (operations.length === 0) throw new Error('the gateway documents no operation');
  const principals = await Principals.create(system);
  const pools = new Pools(principals.publicIds());
  const report: FuzzReport = { seed: options.seed, requests: 0, operations: operations.length, statuses: new Map(), failures: [], elapsedMs: 0 };

  try {
    for (const [index, plan] of schedule(operations, resolver, options).entries()) {
      const wire = materialize(plan, resolver, pools, principals.authorization(plan.principal));
      wire.headers['x-forwarded-for'] ??= randomAddress(plan.poolPicks[7]);
      const response = await send(base, wire, options.timeoutMs ?? 15_000);
      report.requests += 1;
      count(report.statuses, plan.operation.id, response.status);
      const findings = judge(plan.operation, response, system.internalHosts);
      if (findings.length > 0) report.failures.push(failure(index, plan, wire, response.status, findings));
      const answer = parseJson(response.body);
      pools.observe(answer);
      if (response.status >= 200 && response.status < 300 && SESSION_ENDING.test(plan.operation.path)) {
        const sent = parseJson(wire.body) as { newPassword?: unknown; password?: unknown } | undefined;
        if (plan.operation.path.endsWith('/password/set') && typeof sent?.newPassword === 'string') principals.passwordChanged(plan.principal, sent.newPassword);
        await principals.renew();
      }
      if ((index + 1) % 250 === 0) options.progress?.(`${index + 1} requests, ${report.failures.length} failures`);
    }
  } finally {
    closeConnections();
  }
  report.elapsedMs = Date.now() - started;
  return report;
}

/**
 * The run's plans: the same share per operation, interleaved round-robin. The first plan of each
 * operation is a valid request of the account the route is for, so pools of ids fill early.
 */
function schedule(operations: Operation[], resolver: SchemaResolver, options: FuzzOptions): Plan[] {
  const share = Math.ceil(options.requests / operations.length);
  const perOperation = operations.map((operation, index) => {
    const plans = fc.sample(planArbitrary(operation, resolver), { seed: options.seed + index, numRuns: share });
    plans[0] = { ...plans[0]!, kind: 'valid', mutation: { kind: 'none' }, principal: operation.path.includes('/mobile/') ? 'customer' : 'admin' };
    return plans;
  });
  return Array.from({ length: share }, (_, round) => perOperation.map((plans) => plans[round]!)).flat();
}

function count(statuses: FuzzReport['statuses'], operation: string, status: number): void {
  const byStatus = statuses.get(operation) ?? new Map<number, number>();
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  statuses.set(operation, byStatus);
}

function failure(index: number, plan: Plan, wire: WireRequest, status: number, findings: Finding[]): Failure {
  const headers = Object.fromEntries(Object.entries(wire.headers).map(([name, value]) => [name, value.slice(0, 120)]));
  return {
    index,
    operation: plan.operation.id,
    plan: { kind: plan.kind, principal: plan.principal, mutation: plan.mutation },
    request: { method: wire.method, target: wire.target.slice(0, EXCERPT), headers, ...(wire.body && { body: wire.body.subarray(0, EXCERPT).toString('utf8') }) },
    status,
    findings,
  };
}

function parseJson(body: Buffer | undefined): unknown {
  if (!body || body.length === 0 || body.length > 1024 * 1024) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
