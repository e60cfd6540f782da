import { startTelemetry, stopTelemetry } from '@school/telemetry';
import { bearer, startTestGateway, type TestGateway } from './support/gateway.js';

const W3C_TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/;
const INCOMING = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

function traceparentsOf(rawHeaders: string[]): string[] {
  return rawHeaders.filter((_, index) => index % 2 === 1 && rawHeaders[index - 1]!.toLowerCase() === 'traceparent');
}

// One file, in this order: once started, OpenTelemetry's global propagator stays registered for
// the whole jest worker process, so the "without OpenTelemetry" case must run first.
describe('trace context without OpenTelemetry', () => {
  it("passes the client's traceparent through unchanged", async () => {
    const gateway = await startTestGateway();
    try {
      await fetch(`${gateway.url}/api/auth/refresh`, { method: 'POST', headers: { traceparent: INCOMING } });
      expect(traceparentsOf(gateway.fakes.identity.received[0]!.rawHeaders)).toEqual([INCOMING]);
    } finally {
      await gateway.close();
    }
  });
});

describe('trace context with OpenTelemetry running', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    // As the gateway's instrument.ts starts it.
    startTelemetry('gateway-test', { autoInstrument: false });
    gateway = await startTestGateway();
  });
  afterAll(async () => {
    await gateway.close();
    await stopTelemetry();
  });

  it("sends the upstream exactly one traceparent: the client's trace, the gateway's span as parent", async () => {
    const response = await fetch(`${gateway.url}/api/auth/refresh`, { method: 'POST', headers: { traceparent: INCOMING } });
    expect(response.status).toBe(200);
    const traceparents = traceparentsOf(gateway.fakes.identity.received.at(-1)!.rawHeaders);
    expect(traceparents).toHaveLength(1);
    expect(traceparents[0]).toMatch(W3C_TRACEPARENT);
    const [, traceId, parentId] = traceparents[0]!.split('-');
    expect(traceId).toBe(INCOMING.split('-')[1]);
    expect(parentId).not.toBe(INCOMING.split('-')[2]);
  });

  it('starts a trace for a request that carries none, on an authenticated route too', async () => {
    const response = await fetch(`${gateway.url}/api/auth/me`, { headers: { authorization: await bearer(gateway.issuer, { role: 'admin' }) } });
    expect(response.status).toBe(200);
    const traceparents = traceparentsOf(gateway.fakes.identity.received.at(-1)!.rawHeaders);
    expect(traceparents).toHaveLength(1);
    expect(traceparents[0]).toMatch(W3C_TRACEPARENT);
  });
});
