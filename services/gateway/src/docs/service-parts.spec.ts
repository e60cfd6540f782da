import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceName } from '@school/config';
import { createLogger } from '@school/telemetry';
import { ServiceDocParts } from './service-parts.js';

/** Polls until `condition` holds (jest's test timeout bounds the wait). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(5);
}

const DOCUMENT = JSON.stringify({ openapi: '3.1.0', info: { title: 'part', version: '1' }, paths: {} });

/** A service's `/openapi.json`: answered with a document, or 503 while it is down; counts the requests. */
async function servicePart(up: boolean): Promise<{ url: string; asked: () => number; server: Server }> {
  let asked = 0;
  const server = createServer((_request, response) => {
    asked += 1;
    response.writeHead(up ? 200 : 503, { 'content-type': 'application/json' }).end(up ? DOCUMENT : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked: () => asked, server };
}

describe('ServiceDocParts', () => {
  const servers: Server[] = [];
  let parts: ServiceDocParts | undefined;
  afterEach(async () => {
    parts?.stop();
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  async function start(retryMs: number, refreshMs: number) {
    const [identity, feedback] = [await servicePart(true), await servicePart(false)];
    servers.push(identity.server, feedback.server);
    const upstreams = { identity: identity.url, feedback: feedback.url } as Record<ServiceName, string>;
    parts = new ServiceDocParts(upstreams, { logger: createLogger({ service: 'gateway', level: 'silent' }), retryMs, refreshMs });
    parts.start();
    return { identity, feedback };
  }

  it('asks again only for the missing parts while a service is down, not for those it holds', async () => {
    const { identity, feedback } = await start(5, 60_000);
    await until(() => feedback.asked() >= 5);
    expect(identity.asked()).toBe(1);
    expect(parts?.missing()).toEqual(['feedback']);
  });

  it('still refreshes the parts it holds, every refreshMs, while another is missing', async () => {
    const { identity } = await start(5, 50);
    await until(() => identity.asked() >= 3);
    expect(parts?.snapshot().identity).toBeDefined();
  });
});
