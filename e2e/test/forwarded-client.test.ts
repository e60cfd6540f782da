import type { SystemView } from '@school/system-harness';
import { withConnection } from '@school/testing';
import { AUTH_PREFIX, BOOTSTRAP_ADMIN, clientAddress } from './support/people.js';
import { sharedSystem, sharedSystemDatabaseUrl } from './support/shared-system.js';

/**
 * Issue 31 item 9, docs/decisions/0007: services take the client address the gateway forwards only
 * with the gateway's signature. Through the gateway (TRUST_PROXY=1) the client's address reaches
 * identity; a caller that reaches identity directly (another pod of the cluster) is its socket
 * address, whatever X-Forwarded-For it writes. The harness sets no FORWARDING_SECRET: the gateway and
 * identity share the one generated for the installation.
 */
describe('the client address a service records', () => {
  let system: SystemView;
  let databaseUrl: string;

  beforeAll(async () => {
    system = await sharedSystem();
    databaseUrl = await sharedSystemDatabaseUrl();
  });

  /** Logs the bootstrap admin in at `baseUrl` and answers the ip identity stored on the new session. */
  async function sessionIp(baseUrl: string, headers: Record<string, string>): Promise<string | null> {
    const response = await fetch(`${baseUrl}${AUTH_PREFIX.admin}/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(BOOTSTRAP_ADMIN),
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { accessToken: string } };
    const { sid } = JSON.parse(Buffer.from(data.accessToken.split('.')[1] ?? '', 'base64url').toString()) as { sid: string };
    return withConnection(databaseUrl, async (client) => {
      const { rows } = await client.query<{ ip: string | null }>('SELECT ip FROM identity.sessions WHERE id = $1', [sid]);
      return rows[0]?.ip ?? null;
    });
  }

  it('is the client address the gateway determined, for a request through the gateway', async () => {
    const address = clientAddress();
    expect(await sessionIp(system.gatewayUrl, { 'x-forwarded-for': address })).toBe(address);
  });

  it('is the socket address of a direct caller, whatever X-Forwarded-For and signature it writes', async () => {
    const identityUrl = `http://127.0.0.1:${new URL(system.serviceUrl('identity')).port}`;
    const address = clientAddress();
    const attempts: Record<string, string>[] = [{ 'x-forwarded-for': address }, { 'x-forwarded-for': address, 'x-forwarded-for-signature': 'forged' }];
    for (const headers of attempts) {
      expect({ headers, ip: await sessionIp(identityUrl, headers) }).toEqual({ headers, ip: '127.0.0.1' });
    }
  });
});
