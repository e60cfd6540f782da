// The image's HEALTHCHECK (slim images have no curl): GET /health/live on the port this process
// listens on, resolved as the process itself resolves it. Exit 0 when it answers 200.
import { type ProcessName, processEnvironment, resolveTopology } from '@school/config';

const role = process.env['SERVICE'] as ProcessName;
const env = processEnvironment(role);
const port = Number(env['PORT']) || resolveTopology(env).processes[role].port;
const response = await fetch(`http://127.0.0.1:${port}/health/live`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
process.exit(response?.ok ? 0 : 1);
