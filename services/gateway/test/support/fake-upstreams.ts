import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AddressInfo } from 'node:net';
import { SERVICE_NAMES, type ServiceName } from '@school/config';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: FastifyRequest['headers'];
  /** Raw header lines as received, to see duplicates. */
  rawHeaders: string[];
  body: Buffer;
}

/** Overrides a fake's answer to one path; return nothing to fall back to the echo. */
export type Behaviour = (request: FastifyRequest, reply: FastifyReply) => unknown;

export interface FakeUpstream {
  name: ServiceName;
  url: string;
  received: ReceivedRequest[];
  ready: boolean;
  /** Its part of the API at GET /openapi.json (not recorded); undefined answers 503. */
  document: { paths: Record<string, unknown> } | undefined;
  behaviours: Map<string, Behaviour>;
  app: FastifyInstance;
}

/**
 * A stand-in service: records every request (body bytes included) and answers with an echo
 * envelope, unless a behaviour is set for the path (hang, stream events, fail...).
 */
export async function startFakeUpstream(name: ServiceName): Promise<FakeUpstream> {
  const app = Fastify({ bodyLimit: 200 * 1024 * 1024, exposeHeadRoutes: false });
  const fake: FakeUpstream = { name, url: '', received: [], ready: true, document: { paths: {} }, behaviours: new Map(), app };
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.get('/health/ready', async (_request, reply) => {
    reply.code(fake.ready ? 200 : 503);
    return { message: fake.ready ? 'Ready' : 'Not ready', data: null, errorCode: fake.ready ? null : 'SERVICE_UNAVAILABLE' };
  });
  app.get('/openapi.json', async (_request, reply) => {
    if (fake.document) return { openapi: '3.1.0', info: { title: name, version: '1' }, ...fake.document };
    reply.code(503);
    return { message: 'Not ready', data: null, errorCode: 'SERVICE_UNAVAILABLE' };
  });
  app.all('/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    fake.received.push({
      method: request.method,
      url: request.url,
      headers: request.headers,
      rawHeaders: request.raw.rawHeaders,
      body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
    });
    const behaviour = fake.behaviours.get(path);
    if (behaviour) {
      const answer = await behaviour(request, reply);
      if (answer !== undefined || reply.sent) return answer;
    }
    return { message: 'echo', data: { service: name, method: request.method, url: request.url }, errorCode: null };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  fake.url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return fake;
}

export type FakeUpstreams = Record<ServiceName, FakeUpstream>;

export async function startFakeUpstreams(): Promise<FakeUpstreams> {
  const fakes = await Promise.all(SERVICE_NAMES.map((name) => startFakeUpstream(name)));
  return Object.fromEntries(fakes.map((fake) => [fake.name, fake])) as FakeUpstreams;
}

export async function stopFakeUpstreams(fakes: FakeUpstreams): Promise<void> {
  await Promise.all(
    Object.values(fakes).map(async (fake) => {
      fake.app.server.closeAllConnections();
      await fake.app.close();
    }),
  );
}

/** Clears recorded requests and behaviours between tests. */
export function resetFakes(fakes: FakeUpstreams): void {
  for (const fake of Object.values(fakes)) {
    fake.received.length = 0;
    fake.behaviours.clear();
    fake.ready = true;
    fake.document = { paths: {} };
  }
}
