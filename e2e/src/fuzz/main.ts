import { parseArgs } from 'node:util';
import { startSystem } from '@school/system-harness';
import { fuzz } from './fuzzer.js';
import { formatReport } from './report.js';

const USAGE = `npm run fuzz -- [--requests N] [--seed S] [--timeout-ms MS]

Starts the whole system on free ports with a database of its own, then drives every operation of
the gateway's /api/openapi.json with generated valid, boundary and invalid requests and every kind
of bearer token. Fails (exit 1) on any 5xx, hang, error that is not the envelope, stack trace, SQL,
Prisma message or internal address. The same seed and count replay the same run.`;

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    seed: { type: 'string' },
    'timeout-ms': { type: 'string', default: '15000' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const requests = Number(values.requests);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const timeoutMs = Number(values['timeout-ms']);
if (![requests, seed, timeoutMs].every((value) => Number.isSafeInteger(value) && value >= 0)) {
  console.error(`fuzz: --requests, --seed and --timeout-ms take whole numbers\n\n${USAGE}`);
  process.exit(2);
}

console.log(`fuzz: starting the system (seed ${seed})`);
// Each request comes from its own address (X-Forwarded-For behind one trusted proxy), so per-ip throttles do not mask routes.
const system = await startSystem({ env: { TRUST_PROXY: '1' } });
let failed: boolean;
try {
  const report = await fuzz(system, { seed, requests, timeoutMs, progress: (line) => console.log(`fuzz: ${line}`) });
  console.log(formatReport(report, `npm run fuzz -- --seed ${seed} --requests ${requests}`));
  failed = report.failures.length > 0;
} finally {
  await system.shutdown();
}
process.exit(failed ? 1 : 0);
