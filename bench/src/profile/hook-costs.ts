// The gateway's own work per request, hook by hook, from a `--cpu-prof` profile of it (bench:gateway
// with BENCH_CPU_PROF writes one and calls this): `node bench/dist/profile/hook-costs.js <file.cpuprofile> <requests>`.
//
// Each sample goes to the innermost part of the gateway on its stack (a hook, by the file that
// defines it), unless Fastify's hook machinery lies between: a hook calling `done()` runs the next
// step inside its own frame, and that next step is not the hook's cost. What no part claims is
// Fastify, undici and Node proxying the request. Sampled time is wall time while the process was
// on the CPU; under a loaded machine it runs above the CPU time the bench prints, so read the
// shares as much as the microseconds.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const START_UP = 'start-up (loading modules)';

/** The gateway's own parts, by the file of their frames (order: the first match names the part). */
const PARTS: readonly (readonly [part: string, file: RegExp, functionName?: RegExp])[] = [
  [START_UP, /^node:internal\/modules\//],
  [
    'background (revocation heartbeat, API docs fetch)',
    /libs\/auth\/dist\/session-revocations\.js$|services\/gateway\/dist\/docs\//,
    /^(heartbeat|reload|cycle|fetch|fetchOne)$|^$/,
  ],
  ['metrics (onResponse)', /libs\/metrics\/dist\/http-metrics\.js$/],
  ['tracing (span hooks, traceparent)', /services\/gateway\/dist\/tracing\/request-span\.js$|@opentelemetry\//],
  ['access log line (onResponse)', /libs\/telemetry\/dist\/(access-log|logger|redact-secrets|redact-url)\.js$|\/pino\/|\/sonic-boom\//],
  ['per-request logger (Fastify child)', /fastify\/lib\/logger-factory\.js$/],
  ['request id', /libs\/http\/dist\/request-id\.js$/],
  ['response headers (onSend)', /services\/gateway\/dist\/http\/response-headers\.js$/],
  ['head check, 404 (onRequest)', /services\/gateway\/dist\/(errors|http\/request-limits)\.js$/],
  ['client address (onRequest)', /services\/gateway\/dist\/request\/client-ip\.js$/],
  ['upstream request headers + signature', /services\/gateway\/dist\/proxy\/(forward-headers|forwarded-signatures)\.js$|libs\/auth\/dist\/forwarded-client\.js$/],
  ['dot-segment check (preHandler)', /services\/gateway\/dist\/proxy\/upstream\.js$/, /^refuseDotSegments$/],
  ['authentication (onRequest)', /services\/gateway\/dist\/auth\/|libs\/auth\/dist\/(authenticator|jwt-verifier|verified-tokens|session-revocations)\.js$|\/jose\//],
  ['throttles', /services\/gateway\/dist\/throttle\//],
  ['body parsers and deadlines', /services\/gateway\/dist\/body\//],
  ['shutdown gate, other app hooks', /services\/gateway\/dist\/app\.js$/],
];

/** Frames through which one step calls the next: a sample below one is not the step's own. */
const HANDOVER = /fastify\/lib\/(hooks|handle-request)\.js$/;
const HANDOVER_FUNCTIONS = /^(onSendEnd|wrapOnSendEnd|runPreParsing|preValidationCallback|preHandlerCallback)$/;
const NOT_RUNNING = new Set(['(idle)', '(program)', '(root)']);

export interface HookCost {
  part: string;
  ms: number;
  microsecondsPerRequest: number;
  share: number;
}

export function hookCosts(profilePath: string, requests: number): { parts: HookCost[]; busyMs: number; startUpMs: number } {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const owner = new Map<number, string>();
  const ownerOf = (id: number): string => {
    const known = owner.get(id);
    if (known !== undefined) return known;
    const { functionName, url } = nodes.get(id)!.callFrame;
    let part: string | undefined;
    if (functionName === '(garbage collector)') part = 'garbage collection';
    else if (HANDOVER.test(url) || (HANDOVER_FUNCTIONS.test(functionName) && url.includes('fastify/lib/'))) part = 'Fastify, undici, Node: the proxying';
    else part = PARTS.find(([, file, name]) => file.test(url) && (!name || name.test(functionName)))?.[0];
    const parentId = parent.get(id);
    const resolved = part ?? (parentId === undefined ? 'Fastify, undici, Node: the proxying' : ownerOf(parentId));
    owner.set(id, resolved);
    return resolved;
  };
  const totals = new Map<string, number>();
  let busy = 0;
  let startUp = 0;
  profile.samples.forEach((id, index) => {
    if (NOT_RUNNING.has(nodes.get(id)!.callFrame.functionName)) return;
    const microseconds = profile.timeDeltas[index + 1] ?? 0;
    const part = ownerOf(id);
    if (part === START_UP) {
      startUp += microseconds;
      return;
    }
    busy += microseconds;
    totals.set(part, (totals.get(part) ?? 0) + microseconds);
  });
  const parts = [...totals]
    .map(([part, microseconds]) => ({ part, ms: microseconds / 1000, microsecondsPerRequest: microseconds / requests, share: microseconds / busy }))
    .sort((a, b) => b.ms - a.ms);
  return { parts, busyMs: busy / 1000, startUpMs: startUp / 1000 };
}

export function printHookCosts(profilePath: string, requests: number): void {
  const { parts, busyMs, startUpMs } = hookCosts(profilePath, requests);
  console.log(
    `\n${profilePath}: ${requests} requests, ${busyMs.toFixed(0)} ms on the CPU after start-up (${startUpMs.toFixed(0)} ms), ${((busyMs * 1000) / requests).toFixed(1)} µs a request`,
  );
  console.log('| part | µs per request | share |\n|---|---:|---:|');
  for (const { part, microsecondsPerRequest, share } of parts) console.log(`| ${part} | ${microsecondsPerRequest.toFixed(1)} | ${(share * 100).toFixed(1)}% |`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [profilePath, requests] = process.argv.slice(2);
  if (!profilePath || !Number(requests)) {
    console.error('usage: node bench/dist/profile/hook-costs.js <file.cpuprofile> <requests>');
    process.exit(2);
  }
  printHookCosts(profilePath, Number(requests));
}
