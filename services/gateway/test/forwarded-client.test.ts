import { clientIpOf, FORWARDED_FOR_SIGNATURE_HEADER } from '@school/auth';
import { startTestGateway, type TestGateway } from './support/gateway.js';
import { resetFakes } from './support/fake-upstreams.js';

const FORWARDING_SECRET = 'the-forwarding-secret-of-this-test-0123';

/**
 * docs/decisions/0007: the gateway signs the X-Forwarded-For it sends under FORWARDING_SECRET, so a
 * service takes the client address from it; a caller's own signature header never passes through.
 */
describe('the forwarded client address', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({ env: { TRUST_PROXY: '1', FORWARDING_SECRET } });
  });
  afterAll(() => gateway.close());
  afterEach(() => resetFakes(gateway.fakes));

  const received = () => {
    const [request] = gateway.fakes.identity.received;
    return { headers: request?.headers ?? {}, ip: '127.0.0.1' };
  };

  it('reaches the service signed: the service takes the client address the gateway determined', async () => {
    expect((await fetch(`${gateway.url}/api/auth/refresh`, { method: 'POST', headers: { 'x-forwarded-for': '203.0.113.5' } })).status).toBe(200);
    expect(received().headers[FORWARDED_FOR_SIGNATURE_HEADER]).toEqual(expect.any(String));
    expect(clientIpOf(received(), FORWARDING_SECRET)).toBe('203.0.113.5');
    // Under another key (another installation, a guess) it proves nothing.
    expect(clientIpOf(received(), 'another-installation-forwarding-secret')).toBe('127.0.0.1');
  });

  it("replaces a client's own signature header: a client cannot vouch for an address it chose", async () => {
    const forged = { 'x-forwarded-for': '198.51.100.9, 203.0.113.6', [FORWARDED_FOR_SIGNATURE_HEADER]: 'forged' };
    expect((await fetch(`${gateway.url}/api/auth/refresh`, { method: 'POST', headers: forged })).status).toBe(200);
    expect(received().headers[FORWARDED_FOR_SIGNATURE_HEADER]).not.toBe('forged');
    // TRUST_PROXY=1: the entry the trusted proxy wrote, never the client's own.
    expect(clientIpOf(received(), FORWARDING_SECRET)).toBe('203.0.113.6');
  });
});
