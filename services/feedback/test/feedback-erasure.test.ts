import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import { emailDigest } from '@school/http';
import { INBOX_TABLE } from '@school/messaging';
import { TestBroker } from '@school/messaging/testing';
import { uuidv7 } from '@school/prisma';
import { waitFor } from '@school/testing';
import { type FeedbackUnderTest, startFeedback } from './support/feedback-app.js';

const CUSTOMER = '/api/mobile/feedback';
const GUEST = '/api/mobile/feedback/public';

/** Contract §11 in feedback: identity.user_erased through feedback's own queue and inbox. */
describe('feedback follows an erasure (identity.user_erased)', () => {
  let svc: FeedbackUnderTest;
  let broker: TestBroker;

  beforeAll(async () => {
    svc = await startFeedback();
    broker = await TestBroker.connect(svc.brokerPrefix);
  });

  afterAll(async () => {
    await broker?.close();
    await svc?.close();
  });

  const processed = (messageId: string) =>
    waitFor(async () => (await svc.prisma.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM "${svc.schema}".${INBOX_TABLE} WHERE message_id = $1`, messageId)).length > 0, {
      what: `message ${messageId} processed`,
    });

  it('unlinks the account’s submissions and blanks the guest ones that gave its email, keeping what was said; once per message', async () => {
    const userId = randomUUID();
    const email = `erased.${randomUUID().slice(0, 8)}@example.com`;
    const token = await svc.token('customer', userId);
    expect((await svc.request(CUSTOMER, { category: 'bug_report', subject: 'Mine', message: 'Signed in' }, { token })).status).toBe(201);
    const guest = { name: 'Erased Person', email: ` ${email.toUpperCase()} `, phone: '+9779812345678', category: 'general_feedback', subject: 'As guest', message: 'Hello' };
    expect((await svc.request(GUEST, guest)).status).toBe(200);
    expect((await svc.request(GUEST, { ...guest, name: 'Someone Else', email: 'someone.else@example.com', subject: 'Other guest' })).status).toBe(200);

    const messageId = uuidv7();
    const erasure = JSON.stringify({ version: 1, userId, erasedAt: new Date().toISOString(), emailDigest: emailDigest(email) });
    await broker.publish(EVENT_TYPES.userErased, erasure, { messageId });
    await processed(messageId);

    const rows = await svc.prisma.feedbackSubmission.findMany({ orderBy: { createdAt: 'asc' } });
    const mine = rows.filter((row) => row.subject === 'Mine' || row.subject === 'As guest');
    expect(mine).toHaveLength(2);
    for (const row of mine) {
      expect(row).toMatchObject({ userId: null, name: null, email: null, phone: null, ip: null, deviceId: null, userAgent: null });
      expect(row.message).toBeTruthy();
    }
    expect(rows.find((row) => row.name === 'Someone Else')).toMatchObject({ email: 'someone.else@example.com' });
    const events = JSON.stringify(await svc.outboxRows());
    expect(events).not.toContain(email);
    expect(events).not.toContain(userId);
    expect(events).toContain('someone.else@example.com');

    // A redelivery of the same message changes nothing (the inbox has it).
    await broker.publish(EVENT_TYPES.userErased, erasure, { messageId });
    const next = uuidv7();
    await broker.publish(
      EVENT_TYPES.userErased,
      JSON.stringify({ version: 1, userId: randomUUID(), erasedAt: new Date().toISOString(), emailDigest: emailDigest('nobody@example.com') }),
      {
        messageId: next,
      },
    );
    await processed(next);
    expect(await svc.prisma.feedbackSubmission.count({ where: { email: 'someone.else@example.com' } })).toBe(1);
  });
});
