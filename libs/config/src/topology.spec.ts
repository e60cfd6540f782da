import { childEnvironments, PROCESS_NAMES, resolveTopology } from './topology.js';
import { processEnvironment } from './environment.js';

describe('resolveTopology', () => {
  it('uses the ports of contract §1 when nothing is set', () => {
    const topology = resolveTopology({});
    expect(topology.processes.gateway).toMatchObject({ host: '0.0.0.0', port: 3000 });
    expect(topology.processes.identity).toMatchObject({ host: '127.0.0.1', port: 3001, url: 'http://127.0.0.1:3001' });
    expect(topology.processes.notifier.port).toBe(3005);
    expect(topology.jwksUrl).toBe('http://127.0.0.1:3001/.well-known/jwks.json');
  });

  it('moves a service with its <NAME>_PORT, and its URL and the JWKS URL follow', () => {
    const topology = resolveTopology({ IDENTITY_PORT: '4101', REFERENCE_DATA_PORT: '4102' });
    expect(topology.processes.identity.url).toBe('http://127.0.0.1:4101');
    expect(topology.processes['reference-data'].url).toBe('http://127.0.0.1:4102');
    expect(topology.jwksUrl).toBe('http://127.0.0.1:4101/.well-known/jwks.json');
  });

  it('lets an explicit *_URL or JWKS_URL win over the port', () => {
    const topology = resolveTopology({ IDENTITY_PORT: '4101', IDENTITY_URL: 'http://identity:3001' });
    expect(topology.processes.identity).toMatchObject({ port: 4101, url: 'http://identity:3001' });
    expect(topology.jwksUrl).toBe('http://identity:3001/.well-known/jwks.json');
    expect(resolveTopology({ JWKS_URL: 'https://keys.example/jwks.json' }).jwksUrl).toBe('https://keys.example/jwks.json');
  });

  it('points links at the gateway on its port unless PUBLIC_BASE_URL says otherwise', () => {
    expect(resolveTopology({}).publicBaseUrl).toBe('http://localhost:3000');
    expect(resolveTopology({ PORT: '3977' }).publicBaseUrl).toBe('http://localhost:3977');
    expect(resolveTopology({ PORT: '3977', PUBLIC_BASE_URL: 'https://shop.example' }).publicBaseUrl).toBe('https://shop.example');
  });

  it('refuses a port that is not one, naming the variable', () => {
    expect(() => resolveTopology({ MEDIA_PORT: '70000' })).toThrow(/^Invalid configuration: MEDIA_PORT: must be a port number from 1 to 65535$/);
    expect(() => resolveTopology({ PORT: 'abc' })).toThrow(/PORT/);
  });
});

describe('childEnvironments', () => {
  it('gives PORT and HOST to the gateway only; each service gets its own port and every peer URL', () => {
    const environments = childEnvironments({ PORT: '3900', HOST: '0.0.0.0', FEEDBACK_PORT: '4103', DATABASE_URL: 'postgresql://db/x' });
    expect(environments.gateway).toMatchObject({ PORT: '3900', HOST: '0.0.0.0', FEEDBACK_URL: 'http://127.0.0.1:4103' });
    expect(environments.feedback).toMatchObject({ PORT: '4103', HOST: '127.0.0.1', DATABASE_URL: 'postgresql://db/x' });
    expect(environments.identity).toMatchObject({ PORT: '3001', JWKS_URL: 'http://127.0.0.1:3001/.well-known/jwks.json' });
    const ports = PROCESS_NAMES.map((name) => environments[name]['PORT']);
    expect(new Set(ports).size).toBe(PROCESS_NAMES.length);
  });

  it('gives the gateway its metrics port (9464 unless METRICS_PORT moves it) and no service a METRICS_PORT', () => {
    expect(childEnvironments({}).gateway).toMatchObject({ METRICS_PORT: '9464' });
    const environments = childEnvironments({ METRICS_PORT: '9999' });
    expect(environments.gateway).toMatchObject({ METRICS_PORT: '9999' });
    for (const name of PROCESS_NAMES.filter((process) => process !== 'gateway')) expect(environments[name]).not.toHaveProperty('METRICS_PORT');
    expect(resolveTopology({ METRICS_PORT: '9999' }).gatewayMetrics).toMatchObject({ port: 9999, portVariable: 'METRICS_PORT' });
    // 0: any free port, for benchmarks and tests running several gateways.
    expect(resolveTopology({ METRICS_PORT: '0' }).gatewayMetrics.port).toBe(0);
    expect(() => resolveTopology({ METRICS_PORT: '-1' })).toThrow('METRICS_PORT: must be a port number from 0 to 65535');
  });
});

describe('processEnvironment', () => {
  it('lets the real environment win over .env', () => {
    const env = processEnvironment('gateway', { LOG_LEVEL: 'warn' }, { LOG_LEVEL: 'debug', REDIS_URL: 'redis://cache:6379' });
    expect(env).toMatchObject({ LOG_LEVEL: 'warn', REDIS_URL: 'redis://cache:6379' });
  });

  it("treats PORT and HOST in .env as the gateway's: a service run alone keeps its own port", () => {
    const file = { PORT: '3900', HOST: '0.0.0.0', IDENTITY_PORT: '4101' };
    expect(processEnvironment('gateway', {}, file)).toMatchObject({ PORT: '3900', HOST: '0.0.0.0' });
    const identity = processEnvironment('identity', {}, file);
    expect(identity['PORT']).toBe('4101');
    expect(identity['HOST']).toBeUndefined();
    expect(processEnvironment('media', {}, file)['PORT']).toBe('3004');
  });

  it('lets a PORT in the real environment of a service win (containers, the supervisor), port 0 included', () => {
    expect(processEnvironment('identity', { PORT: '8080' }, { IDENTITY_PORT: '4101' })['PORT']).toBe('8080');
    expect(processEnvironment('identity', { PORT: '0' }, {})['PORT']).toBe('0');
  });

  it('derives the peer URLs a process reads from the ports', () => {
    expect(processEnvironment('gateway', { MEDIA_PORT: '4104' }, {})).toMatchObject({
      MEDIA_URL: 'http://127.0.0.1:4104',
      JWKS_URL: 'http://127.0.0.1:3001/.well-known/jwks.json',
    });
  });

  it('binds the gateway metrics listener to 127.0.0.1 unless METRICS_HOST says otherwise; HOST does not move it (contract §9)', () => {
    expect(resolveTopology({ HOST: '0.0.0.0' }).gatewayMetrics.host).toBe('127.0.0.1');
    expect(childEnvironments({ HOST: '0.0.0.0' }).gateway).toMatchObject({ HOST: '0.0.0.0', METRICS_HOST: '127.0.0.1' });
    const environments = childEnvironments({ METRICS_HOST: '0.0.0.0' });
    expect(environments.gateway).toMatchObject({ METRICS_HOST: '0.0.0.0' });
    for (const name of PROCESS_NAMES.filter((process) => process !== 'gateway')) expect(environments[name]).not.toHaveProperty('METRICS_HOST');
  });
});
