import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@school/testing';
import { root } from './support/deployment.js';

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

interface Gateway {
  port: number;
  metricsPort: number;
  stop(): Promise<void>;
}

/** The built gateway alone (no service is needed to listen): it is up once /health/live answers. */
async function startGateway(env: Record<string, string>): Promise<Gateway> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(process.execPath, [join(root, 'services/gateway/dist/main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DOTENV_PATH: '/dev/null',
      LOG_LEVEL: 'warn',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      ...env,
    },
    stdio: 'ignore',
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  // Both listeners are up once the metrics one answers (main starts it after the public port).
  while ((await get('127.0.0.1', port, '/health/live')) !== 200 || typeof (await get('127.0.0.1', metricsPort, '/metrics')) !== 'number') {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}`);
    await sleep(100);
  }
  return { port, metricsPort, stop };
}

/**
 * Contract §9, operations: the gateway's metrics listener binds 127.0.0.1 unless METRICS_HOST says
 * otherwise; HOST does not move it. 127.0.0.2 is another loopback address: a listener on every
 * interface answers there, one on 127.0.0.1 does not.
 */
describe('the gateway metrics listener', () => {
  let gateway: Gateway | undefined;

  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
  });

  it('stays on 127.0.0.1 while HOST puts the public port on every interface', async () => {
    gateway = await startGateway({ HOST: '0.0.0.0' });
    expect(await get('127.0.0.2', gateway.port, '/health/live')).toBe(200);
    expect(await get('127.0.0.1', gateway.metricsPort, '/metrics')).toBe(200);
    expect(await get('127.0.0.2', gateway.metricsPort, '/metrics')).toBe('ECONNREFUSED');
  }, 120_000);

  it('moves where METRICS_HOST says (containers: 0.0.0.0)', async () => {
    gateway = await startGateway({ HOST: '127.0.0.1', METRICS_HOST: '0.0.0.0' });
    expect(await get('127.0.0.2', gateway.metricsPort, '/metrics')).toBe(200);
    expect(await get('127.0.0.2', gateway.port, '/health/live')).toBe('ECONNREFUSED');
  }, 120_000);
});
