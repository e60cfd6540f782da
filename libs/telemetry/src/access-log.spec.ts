import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { registerAccessLog } from './access-log.js';
import { createLogger } from './logger.js';

async function serve(successSampleRate: number) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry['msg'] === 'request completed') lines.push(entry);
      }
      done();
    },
  });
  const loggerInstance: FastifyBaseLogger = createLogger({ service: 'test', level: 'info' }, stream);
  const app = Fastify({ loggerInstance, disableRequestLogging: true });
  registerAccessLog(app, { successSampleRate, skip: (url) => url.startsWith('/health/') });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/health/live', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const get = async (path: string) => (await fetch(`${base}${path}`)).status;
  return { app, lines, get };
}

describe('registerAccessLog', () => {
  it('writes one line per response with method, url, status and time; none for skipped urls', async () => {
    const { app, lines, get } = await serve(1);
    try {
      expect(await get('/ok?x=1')).toBe(200);
      expect(await get('/missing')).toBe(404);
      expect(await get('/health/live')).toBe(200);
      await app.close();
      expect(lines).toEqual([
        expect.objectContaining({ msg: 'request completed', method: 'GET', url: '/ok?x=1', statusCode: 200, responseTime: expect.any(Number), reqId: expect.anything() }),
        expect.objectContaining({ msg: 'request completed', url: '/missing', statusCode: 404 }),
      ]);
    } finally {
      await app.close();
    }
  });

  it('with a sample rate of 0 logs no 2xx and still every 4xx', async () => {
    const { app, lines, get } = await serve(0);
    try {
      for (let index = 0; index < 5; index += 1) await get('/ok');
      await get('/missing');
      await app.close();
      expect(lines.map((line) => line.statusCode)).toEqual([404]);
    } finally {
      await app.close();
    }
  });
});
