import { ConfigError } from './config-error.js';

/** The processes of contract §1: default port and the Postgres schema each one owns. */
export const SERVICES = {
  identity: { port: 3001, schema: 'identity' },
  'reference-data': { port: 3002, schema: 'reference_data' },
  feedback: { port: 3003, schema: 'feedback' },
  media: { port: 3004, schema: 'media' },
  notifier: { port: 3005, schema: 'notifier' },
} as const;

export type ServiceName = keyof typeof SERVICES;

export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];

/** Every process `npm start` runs; the gateway last, once the services it routes to are starting. */
export type ProcessName = ServiceName | 'gateway';
export const PROCESS_NAMES: readonly ProcessName[] = [...SERVICE_NAMES, 'gateway'];

/**
 * V8's young generation: by default each semi-space grows to 16-32 MB on a machine with this much
 * memory (64-128 MB of new space), and start-up's allocations grow it there, where it stays while
 * the process idles. 4 MB semi-spaces cut every process's idle RSS by 30-60 MB with no measurable
 * cost per request (docs/decisions/0018-memory-footprint.md); a NODE_OPTIONS of the environment
 * replaces this one, so an operator who sets it keeps the flag in it.
 */
const NODE_OPTIONS = '--max-semi-space-size=4';

/**
 * Variables the runtime reads rather than a process's config shape, set for the process wherever it
 * runs (`npm start` and the test and bench harnesses, docker-compose.yml, the Helm chart and the
 * Kustomize base), unless its environment sets them. Every process: NODE_OPTIONS above. Media: glibc
 * gives each thread that allocates (libvips', libuv's) a malloc arena of its own, which keeps freed
 * image memory; two arenas cut media's peak RSS in the upload bench from 477 to 380 MB (two
 * 2000x1500 PNGs converted at once) and from 314 to 281 MB (three 50 MiB uploads), at the same
 * conversion rate.
 */
const RUNTIME_ENV: Partial<Record<ProcessName, Readonly<Record<string, string>>>> = {
  media: { MALLOC_ARENA_MAX: '2' },
};

/** The runtime variables of one process: NODE_OPTIONS, and its RUNTIME_ENV. */
export function runtimeEnv(name: ProcessName): Readonly<Record<string, string>> {
  return { NODE_OPTIONS, ...RUNTIME_ENV[name] };
}

export const GATEWAY_PORT = 3000;
/** The gateway's Prometheus listener (`METRICS_PORT`), apart from its public port; services serve /metrics on their own port. */
export const GATEWAY_METRICS_PORT = 9464;
const METRICS_PORT_VARIABLE = 'METRICS_PORT';
/** Contract §9: the metrics listener stays on loopback unless METRICS_HOST moves it (containers: 0.0.0.0); HOST never does. */
export const GATEWAY_METRICS_HOST = '127.0.0.1';
const METRICS_HOST_VARIABLE = 'METRICS_HOST';
export const GATEWAY_HOST = '0.0.0.0';
/** Services bind to loopback by default: the gateway is the only public port (contract §1). */
export const SERVICE_HOST = '127.0.0.1';

type Environment = Record<string, string | undefined>;

const variablePrefix = (name: ServiceName) => name.toUpperCase().replace(/-/g, '_');

/** Environment variable naming a service's base URL for its peers, e.g. `REFERENCE_DATA_URL`. */
export function serviceUrlVariable(name: ServiceName): string {
  return `${variablePrefix(name)}_URL`;
}

/** Environment variable naming the port `npm start` gives a service, e.g. `REFERENCE_DATA_PORT`. */
export function servicePortVariable(name: ServiceName): string {
  return `${variablePrefix(name)}_PORT`;
}

export interface Endpoint {
  host: string;
  port: number;
  /** Where the others reach it (an explicit `*_URL` wins over host and port). */
  url: string;
  /** The variable that moves it: `PORT` for the gateway, `<NAME>_PORT` for a service. */
  portVariable: string;
}

/** Where every process listens and how the others reach it: the one place this is computed. */
export interface Topology {
  processes: Record<ProcessName, Endpoint>;
  /** The gateway's second listener, serving only GET /metrics (never on the public port). */
  gatewayMetrics: Endpoint;
  jwksUrl: string;
  /** Host of links in emails and file URLs: PUBLIC_BASE_URL, else the gateway on localhost. */
  publicBaseUrl: string;
}

function portOf(env: Environment, variable: string, fallback: number, lowest = 1): number {
  const raw = env[variable];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < lowest || port > 65535) {
    throw new ConfigError(`Invalid configuration: ${variable}: must be a port number from ${lowest} to 65535`);
  }
  return port;
}

export function resolveTopology(env: Environment): Topology {
  const service = (name: ServiceName): Endpoint => {
    const port = portOf(env, servicePortVariable(name), SERVICES[name].port);
    const url = env[serviceUrlVariable(name)] || `http://${SERVICE_HOST}:${port}`;
    return { host: SERVICE_HOST, port, url, portVariable: servicePortVariable(name) };
  };
  const gatewayPort = portOf(env, 'PORT', GATEWAY_PORT);
  const gateway: Endpoint = { host: env['HOST'] || GATEWAY_HOST, port: gatewayPort, url: `http://localhost:${gatewayPort}`, portVariable: 'PORT' };
  const processes = { ...Object.fromEntries(SERVICE_NAMES.map((name) => [name, service(name)])), gateway } as Record<ProcessName, Endpoint>;
  // 0: any free port (benchmarks and tests running several gateways); the gateway logs the one it got.
  const metricsPort = portOf(env, METRICS_PORT_VARIABLE, GATEWAY_METRICS_PORT, 0);
  const gatewayMetrics: Endpoint = {
    host: env[METRICS_HOST_VARIABLE] || GATEWAY_METRICS_HOST,
    port: metricsPort,
    url: `http://localhost:${metricsPort}`,
    portVariable: METRICS_PORT_VARIABLE,
  };
  const jwksUrl = env['JWKS_URL'] || `${processes.identity.url}/.well-known/jwks.json`;
  return { processes, gatewayMetrics, jwksUrl, publicBaseUrl: env['PUBLIC_BASE_URL'] || gateway.url };
}

/** The peer addresses every process reads: each service's URL, the JWKS URL, and the public base URL. */
export function peerEnvironment(topology: Topology): Record<string, string> {
  return {
    ...Object.fromEntries(SERVICE_NAMES.map((name) => [serviceUrlVariable(name), topology.processes[name].url])),
    JWKS_URL: topology.jwksUrl,
    PUBLIC_BASE_URL: topology.publicBaseUrl,
  };
}

/**
 * The environment of each child of the supervisor: everything it was given, the peer addresses,
 * and its own PORT and HOST. Only the gateway receives the operator's PORT, HOST, METRICS_PORT and
 * METRICS_HOST (lesson 12).
 */
export function childEnvironments(env: Environment, topology: Topology = resolveTopology(env)): Record<ProcessName, Environment> {
  const { PORT: _port, HOST: _host, [METRICS_PORT_VARIABLE]: _metricsPort, [METRICS_HOST_VARIABLE]: _metricsHost, ...shared } = env;
  const peers = peerEnvironment(topology);
  return Object.fromEntries(
    PROCESS_NAMES.map((name) => {
      const { host, port } = topology.processes[name];
      const own = name === 'gateway' ? { [METRICS_PORT_VARIABLE]: String(topology.gatewayMetrics.port), [METRICS_HOST_VARIABLE]: topology.gatewayMetrics.host } : {};
      return [name, { ...shared, ...peers, PORT: String(port), HOST: host, ...own }];
    }),
  ) as unknown as Record<ProcessName, Environment>;
}
