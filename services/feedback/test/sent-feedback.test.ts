import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FEEDBACK_SENT_BY_ACCOUNT } from '@school/contracts';
import { rpcStandIn, type RpcStandIn } from '@school/messaging/testing';
import { scaled } from '@school/testing';
import { type FeedbackUnderTest, startFeedback } from './support/feedback-app.js';

/** FEEDBACK_SENT_BY_ACCOUNT (contract §11 export): feedback answers identity with what one account sent signed in, and nothing else. */
describe('feedback answers FEEDBACK_SENT_BY_ACCOUNT', () => {
  let svc: FeedbackUnderTest;
  let identity: RpcStandIn;

  beforeAll(async () => {
    svc = await startFeedback();
    identity = await rpcStandIn(svc.brokerPrefix, { callTimeoutMs: scaled(3_000), readyWithinMs: scaled(10_000) });
  });

  afterAll(async () => {
    await identity?.close();
    await svc?.close();
  });

  it("lists the account's signed-in submissions oldest first: no guest submission, nobody else's, no request metadata", async () => {
    const sender = randomUUID();
    const token = await svc.token('customer', sender);
    const send = async (body: Record<string, unknown>, bearer?: string) =>
      expect((await svc.request(bearer ? '/api/mobile/feedback' : '/api/mobile/feedback/public', body, { token: bearer })).status).toBeLessThan(300);
    await send({ category: 'bug_report', message: 'first, no subject' }, token);
    await send({ category: 'feature_request', subject: 'Dark mode', message: 'second\nplease' }, token);
    await send({ category: 'general_feedback', message: 'from someone else' }, await svc.token('customer'));
    await send({ name: 'A Guest', email: 'guest@example.com', category: 'general_feedback', subject: 'Hi', message: 'a guest' });

    const { submissions } = await identity.rpc.call(FEEDBACK_SENT_BY_ACCOUNT, { userId: sender });
    expect(submissions).toEqual([
      { id: expect.any(String), category: 'bug_report', subject: null, message: 'first, no subject', createdAt: expect.any(String) },
      { id: expect.any(String), category: 'feature_request', subject: 'Dark mode', message: 'second\nplease', createdAt: expect.any(String) },
    ]);
    expect(await identity.rpc.call(FEEDBACK_SENT_BY_ACCOUNT, { userId: randomUUID() })).toEqual({ submissions: [] });
  });
});
