import { bearer, startTestGateway, type TestGateway } from './support/gateway.js';

describe('gateway content security policies (contract §9)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(() => gateway.close());

  it('serves stored files with a policy that runs nothing, on every file route and alias', async () => {
    const authorization = await bearer(gateway.issuer, { role: 'admin' });
    const filePaths = [
      '/api/upload/file/uploads/file/u/a.html',
      '/upload/file/uploads/file/u/a.html',
      '/api/mobile/uploads/file/uploads/file/u/a.html',
      '/mobile/uploads/file/uploads/file/u/a.html',
      '/api/files/signed/uploads/file/u/a.html?expires=1&signature=x',
    ];
    for (const path of filePaths) {
      const response = await fetch(gateway.url + path, { headers: { authorization } });
      expect([path, response.status, response.headers.get('content-security-policy')]).toEqual([path, 200, "default-src 'none'; sandbox"]);
    }
    const other = await fetch(`${gateway.url}/api/upload/signed-url/uploads/file/u/a.html`, { headers: { authorization } });
    expect(other.headers.get('content-security-policy')).toBeNull();
  });

  it('gives the docs page a policy allowing only its own scripts and styles', async () => {
    const response = await fetch(`${gateway.url}/api/docs`);
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(
      policy
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values.join(' ')]),
    );
    expect(directives).toMatchObject({ 'default-src': "'none'", 'script-src': "'self'", 'style-src': "'self'" });
  });
});
