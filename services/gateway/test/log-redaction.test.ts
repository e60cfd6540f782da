import { pino } from 'pino';
import { startTestGateway, type TestGateway } from './support/gateway.js';

const SIGNATURE = 'c2lnbmF0dXJlLW5ldmVyLWxvZ2dlZA';
const TOKEN = 'dG9rZW4tbmV2ZXItbG9nZ2Vk';

/** Contract §9: logs never hold a signed URL's signature or a token. */
describe('gateway logs', () => {
  let gateway: TestGateway;
  const lines: string[] = [];

  beforeAll(async () => {
    const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
    gateway = await startTestGateway({ deps: { logger } });
  });
  afterAll(() => gateway.close());

  const accessLines = () => lines.map((line) => JSON.parse(line) as { msg: string; url?: string; statusCode?: number }).filter((line) => line.msg === 'request completed');

  it('redact the query string of signed routes and token parameters, in access lines and error lines alike', async () => {
    const signedPath = '/api/files/signed/uploads/file/u/a.pdf';
    expect((await fetch(`${gateway.url}${signedPath}?expires=1999999999999&signature=${SIGNATURE}`)).status).toBe(200);
    // An upstream that drops the connection: the gateway logs the failure and answers 503.
    gateway.fakes.media.behaviours.set('/api/files/signed/uploads/file/u/b.pdf', (request) => {
      request.raw.socket.destroy();
    });
    expect((await fetch(`${gateway.url}/api/files/signed/uploads/file/u/b.pdf?expires=1&signature=${SIGNATURE}`)).status).toBe(503);
    expect((await fetch(`${gateway.url}/.well-known/jwks.json?token=${TOKEN}&page=2`)).status).toBe(200);
    expect((await fetch(`${gateway.url}/api/nowhere?access_token=${TOKEN}`)).status).toBe(404);

    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines.filter((line) => line.includes(SIGNATURE) || line.includes(TOKEN))).toEqual([]);
    expect(accessLines().map((line) => [line.url, line.statusCode])).toEqual([
      [`${signedPath}?[redacted]`, 200],
      ['/api/files/signed/uploads/file/u/b.pdf?[redacted]', 503],
      ['/.well-known/jwks.json?token=[redacted]&page=2', 200],
      ['/api/nowhere?access_token=[redacted]', 404],
    ]);
    // The upstream saw the whole URL: only the logs lose it.
    expect(gateway.fakes.media.received[0]?.url).toContain(SIGNATURE);
  });
});
