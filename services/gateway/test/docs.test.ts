import { operationKeys, openApiPath, type OpenApiDocument } from '@school/openapi';
import { ROUTE_TABLE } from '../src/routes/route-table.js';
import { startFakeUpstreams, stopFakeUpstreams, type FakeUpstreams } from './support/fake-upstreams.js';
import { startTestGateway, type TestGateway } from './support/gateway.js';
import { scaled } from '@school/testing';

const tableKeys = ROUTE_TABLE.map((route) => `${route.method} ${openApiPath(route.path)}`).sort();

const loginPart = {
  '/api/auth/login/email': {
    post: {
      summary: 'Log in',
      responses: { '200': { description: 'Token pair' } },
      'x-error-codes': { AUTH_INVALID_CREDENTIALS: 401 },
    },
  },
};
const uploadPart = {
  '/api/upload': { post: { summary: 'Upload one file', responses: { '200': { description: 'File uploaded' } }, 'x-error-codes': {} } },
};

describe('the gateway’s API documentation', () => {
  let fakes: FakeUpstreams;
  let gateway: TestGateway;

  beforeAll(async () => {
    fakes = await startFakeUpstreams();
    fakes.identity.document = { paths: loginPart };
    fakes.media.document = { paths: uploadPart };
    // Down when the gateway starts.
    fakes.feedback.document = undefined;
    gateway = await startTestGateway({ fakes, deps: { docsRetryMs: 100 } });
  });
  afterAll(async () => {
    await gateway.close();
    await stopFakeUpstreams(fakes);
  });

  async function document(): Promise<OpenApiDocument> {
    const response = await fetch(`${gateway.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    return (await response.json()) as OpenApiDocument;
  }

  it('holds exactly the operations of the route table, with the table’s auth', async () => {
    const merged = await document();
    expect(operationKeys(merged).sort()).toEqual(tableKeys);
    expect(merged.paths['/api/auth/me']?.get?.security).toEqual([{ bearerAuth: [] }]);
    expect(merged.paths['/api/auth/login/email']?.post?.security).toEqual([]);
    expect(merged.paths['/api/auth/me']?.get?.['x-error-codes']).toMatchObject({ AUTH_UNAUTHENTICATED: 401, SERVICE_UNAVAILABLE: 503 });
  });

  it('takes each route from its service’s part, the /api-less upload alias from the path it forwards to', async () => {
    const merged = await document();
    expect(merged.paths['/api/upload']?.post?.summary).toBe('Upload one file');
    expect(merged.paths['/upload']?.post?.summary).toBe('Upload one file');
    const login = merged.paths['/api/auth/login/email']?.post;
    expect(login?.['x-error-codes']).toEqual({
      AUTH_INVALID_CREDENTIALS: 401,
      VALIDATION_FAILED: 400,
      REQUEST_TIMEOUT: 408,
      URI_TOO_LONG: 414,
      HEADERS_TOO_LARGE: 431,
      RATE_LIMITED: 429,
      PAYLOAD_TOO_LARGE: 413,
      SERVICE_UNAVAILABLE: 503,
    });
    expect(login?.responses['429']).toBeDefined();
    expect(merged.paths['/upload']?.post?.operationId).toBe('postUpload');
    expect(merged.paths['/api/upload']?.post?.operationId).toBe('postApiUpload');
    expect(merged.paths['/upload']?.post?.security).toEqual([{ bearerAuth: [] }]);
  });

  it('answers the document while a service is down, and completes it once the service answers', async () => {
    const withoutFeedback = await document();
    expect(operationKeys(withoutFeedback).sort()).toEqual(tableKeys);
    expect(withoutFeedback.paths['/api/mobile/feedback/public']?.post?.['x-description-unavailable']).toBe(true);
    fakes.feedback.document = {
      paths: { '/api/mobile/feedback/public': { post: { summary: 'Guest feedback', responses: { '200': { description: 'Received' } }, 'x-error-codes': {} } } },
    };
    const completed = await waitFor(async () => {
      const current = await document();
      return current.paths['/api/mobile/feedback/public']?.post?.summary === 'Guest feedback' ? current : undefined;
    });
    expect(completed.paths['/api/mobile/feedback/public']?.post?.['x-description-unavailable']).toBeUndefined();
  });

  it('serves the interactive page and its assets itself, with no address outside the gateway', async () => {
    const page = await fetch(`${gateway.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(3);
    for (const source of sources) {
      const asset = await fetch(`${gateway.url}${source}`);
      expect(asset.status).toBe(200);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const other = await fetch(`${gateway.url}/api/docs/package.json`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ errorCode: 'NOT_FOUND' });
  });
});

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + scaled(timeoutMs);
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
