import { request } from 'node:http';
import { startSystem, type RunningSystem } from './support/system.js';

/** Resolves with the status of GET `path`, or the connection error's code (e.g. ECONNREFUSED). */
function get(host: string, port: number, path: string): Promise<number | string> {
  return new Promise((resolve) => {
    const outgoing = request({ host, port, path, method: 'GET' }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    outgoing.end();
  });
}

/**
 * Contract §9, operations: the gateway's metrics listener binds 127.0.0.1 unless METRICS_HOST says
 * otherwise; HOST does not move it. 127.0.0.2 is another loopback address: a listener on every
 * interface answers there, one on 127.0.0.1 does not.
 */
describe('the gateway metrics listener', () => {
  let system: RunningSystem;

  afterEach(async () => {
    await system?.shutdown();
  });

  const portOf = (url: string) => Number(new URL(url).port);

  it('stays on 127.0.0.1 while HOST puts the public port on every interface', async () => {
    system = await startSystem({ env: { HOST: '0.0.0.0' } });
    const metricsPort = portOf(system.gatewayMetricsUrl);
    expect(await get('127.0.0.2', portOf(system.gatewayUrl), '/health/live')).toBe(200);
    expect(await get('127.0.0.1', metricsPort, '/metrics')).toBe(200);
    expect(await get('127.0.0.2', metricsPort, '/metrics')).toBe('ECONNREFUSED');
  }, 120_000);

  it('moves where METRICS_HOST says (containers: 0.0.0.0)', async () => {
    system = await startSystem({ env: { METRICS_HOST: '0.0.0.0' } });
    expect(await get('127.0.0.2', portOf(system.gatewayMetricsUrl), '/metrics')).toBe(200);
  }, 120_000);
});
