import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { FEEDBACK_SENT_BY_ACCOUNT, FILES_OF_ACCOUNT, type RpcAnswer, type RpcContract, type RpcRequest } from '@school/contracts';
import { AmqpConnection, RpcServer, silentLogger } from '@school/messaging';
import { TEST_AMQP_URL } from '@school/messaging/testing';
import { scaled } from '@school/testing';
import { accessTokenFor, createAccount, identitySuite, sessionIdOf, signIn } from './kit/index.js';

/**
 * Contract §11 export in identity alone: feedback and media are stand-ins answering over RabbitMQ
 * (or not at all). The copy is whole or 503, and the hourly count is the account's, over the three routes.
 */

interface Download {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + scaled(10_000);
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const feedbackOf = (userId: string): RpcAnswer<typeof FEEDBACK_SENT_BY_ACCOUNT> => ({
  submissions: [{ id: randomUUID(), category: 'bug_report', subject: null, message: `sent by ${userId}`, createdAt: '2026-12-01T10:00:00.000Z' }],
});
const filesOf = (ownerId: string): RpcAnswer<typeof FILES_OF_ACCOUNT> => ({
  files: [{ key: `uploads/file/${ownerId}/a.pdf`, uploadType: 'file', originalName: 'a.pdf', mimeType: 'application/pdf', size: 12, createdAt: '2026-12-01T10:00:00.000Z' }],
});

describe('account export (contract §11) in identity', () => {
  const identity = identitySuite();
  let adminToken: string;
  let connection: AmqpConnection;
  const peers = new Map<string, RpcServer>();

  beforeAll(async () => {
    adminToken = (await signIn(identity, await createAccount(identity, { role: 'admin' }))).accessToken;
    connection = new AmqpConnection({ url: TEST_AMQP_URL, name: 'export-peers-stand-in', logger: silentLogger, reconnect: { initialMs: 100, maxMs: 400 } });
  });

  afterAll(async () => {
    for (const server of peers.values()) await server.stop();
    await connection?.close();
  });

  async function serve<Contract extends RpcContract>(contract: Contract, answer: (request: RpcRequest<Contract>) => unknown): Promise<void> {
    const server = new RpcServer(connection, {
      prefix: identity.brokerPrefix,
      routes: [{ contract, handler: (request) => answer(request as RpcRequest<Contract>) }],
      prefetch: 10,
      logger: silentLogger,
    });
    server.start();
    peers.set(contract.name, server);
    await until(() => server.isConsuming(), `the ${contract.name} stand-in`);
  }

  async function stop(contract: RpcContract): Promise<void> {
    await peers.get(contract.name)?.stop();
    peers.delete(contract.name);
  }

  const bothPeers = async () => {
    if (!peers.has(FEEDBACK_SENT_BY_ACCOUNT.name)) await serve(FEEDBACK_SENT_BY_ACCOUNT, ({ userId }) => feedbackOf(userId));
    if (!peers.has(FILES_OF_ACCOUNT.name)) await serve(FILES_OF_ACCOUNT, ({ ownerId }) => filesOf(ownerId));
  };

  async function download(path: string, token: string): Promise<Download> {
    const response = await fetch(`${identity.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
  }

  const countedCopies = (userId: number) => identity.prisma.accountExport.count({ where: { userId } });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After while feedback or media gives no answer, never a partial copy, and such a try does not count', async () => {
    const user = await createAccount(identity);
    const token = accessTokenFor(identity, user);
    // Neither has ever served: no queue takes the question.
    const never = await download('/api/mobile/account/export', token);
    expect([never.status, never.body['errorCode'], never.headers.get('retry-after')]).toEqual([503, 'SERVICE_UNAVAILABLE', '5']);
    expect(never.body).not.toHaveProperty('profile');

    await bothPeers();
    await stop(FILES_OF_ACCOUNT);
    // Media served once and is gone: its queue holds the question until the deadline.
    const noMedia = await download(`/api/users/${user.publicId}/export`, adminToken);
    expect([noMedia.status, noMedia.body['errorCode'], noMedia.headers.get('retry-after')]).toEqual([503, 'SERVICE_UNAVAILABLE', '5']);

    await serve(FILES_OF_ACCOUNT, ({ ownerId }) => filesOf(ownerId));
    await stop(FEEDBACK_SENT_BY_ACCOUNT);
    const noFeedback = await download('/api/mobile/account/export', token);
    expect([noFeedback.status, noFeedback.body['errorCode']]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(await countedCopies(user.id)).toBe(0);

    await bothPeers();
    const whole = await download('/api/mobile/account/export', token);
    expect(whole.status).toBe(200);
    expect(whole.body['feedback']).toEqual([expect.objectContaining({ category: 'bug_report', subject: null, message: `sent by ${user.publicId}` })]);
    expect(whole.body['files']).toEqual(filesOf(user.publicId).files);
    expect(await countedCopies(user.id)).toBe(1);
  }, 60_000);

  it('answers the copy as a JSON file with the calling session marked current', async () => {
    await bothPeers();
    const user = await createAccount(identity, { role: 'staff' });
    const session = await signIn(identity, user);
    const answer = await download('/api/auth/account/export', session.accessToken);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const exportedAt = answer.body['exportedAt'] as string;
    expect(exportedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="account-export-${exportedAt.slice(0, 10)}.json"`);
    expect(Object.keys(answer.body).sort()).toEqual(['address', 'exportedAt', 'feedback', 'files', 'profile', 'sessions']);
    expect(answer.body['profile']).toMatchObject({ publicId: user.publicId, email: user.email, role: 'staff', hasPassword: true });
    expect(answer.body['address']).toBeNull();
    expect(answer.body['sessions']).toEqual([expect.objectContaining({ id: sessionIdOf(session.accessToken), current: true })]);
  }, 60_000);

  it('counts at most five copies of one account an hour over the three routes, whoever asks, even asked at once', async () => {
    await bothPeers();
    const user = await createAccount(identity);
    const own = (await signIn(identity, user)).accessToken;
    const paths = ['/api/mobile/account/export', `/api/users/${user.publicId}/export`];
    const answers = await Promise.all(Array.from({ length: 8 }, (_, at) => download(paths[at % 2]!, at % 2 === 0 ? own : adminToken)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.body['errorCode']).toBe('RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    }
    // Another account's count is its own.
    const other = await createAccount(identity);
    expect((await download(`/api/users/${other.publicId}/export`, adminToken)).status).toBe(200);
  }, 60_000);

  it('copies a soft-deleted account for an administrator; an unknown one is 404 USER_NOT_FOUND', async () => {
    await bothPeers();
    const user = await createAccount(identity);
    expect((await identity.request('DELETE', `/api/users/${user.publicId}`, undefined, adminToken)).status).toBe(200);
    const deleted = await download(`/api/users/${user.publicId}/export`, adminToken);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ profile: { publicId: user.publicId }, sessions: [] });
    for (const publicId of [randomUUID(), 'not-a-uuid']) {
      const unknown = await download(`/api/users/${publicId}/export`, adminToken);
      expect([unknown.status, unknown.body['errorCode']]).toEqual([404, 'USER_NOT_FOUND']);
    }
  }, 60_000);
});
