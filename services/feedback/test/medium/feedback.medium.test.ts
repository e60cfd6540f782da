import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { Principal } from '@school/auth';
import { customerFeedbackBody, type EventPayload, type EventType, guestFeedbackBody } from '@school/contracts';
import { Outbox, type OutboxEntry } from '@school/messaging';
import { DatabaseSchema } from '@school/service';
import { FeedbackRepository } from '../../src/feedback/feedback.repository.js';
import { FeedbackService } from '../../src/feedback/feedback.service.js';
import { feedbackMedium, type FeedbackMedium } from './kit.js';

/**
 * The schema's outbox, whose row Postgres refuses while `failing` is set (a type longer than its
 * column): the write that follows the submission's row in the same statement.
 */
class FailingOutbox extends Outbox {
  failing = false;

  override entry<Type extends EventType>(type: Type, payload: EventPayload<Type>): OutboxEntry {
    const entry = super.entry(type, payload);
    return this.failing ? { ...entry, type: `${entry.type}${'x'.repeat(300)}` as EventType } : entry;
  }
}

const ORIGIN = { ip: '203.0.113.7', deviceId: 'device-1', userAgent: 'jest-agent' };

const guestBody = (overrides: Record<string, unknown> = {}) =>
  guestFeedbackBody.parse({
    name: 'Asha Guest',
    email: 'asha@example.com',
    phone: '+9779812345678',
    category: 'bug_report',
    subject: 'The app crashes',
    message: 'When I open the timetable\nit closes.',
    ...overrides,
  });
const customerBody = (overrides: Record<string, unknown> = {}) =>
  customerFeedbackBody.parse({ category: 'feature_request', subject: 'Dark mode', message: 'Please add a dark theme.', ...overrides });

/** The rules of feedback (spec §4.3, §6) against the use case; their wire (routes, validation answers, origin headers) is feedback.test.ts. */
describe('feedback: the use case over its repository and outbox (medium)', () => {
  let world: FeedbackMedium;
  let feedback: FeedbackService;
  let outbox: FailingOutbox;
  const customerId = randomUUID();
  const customer = { userId: customerId, sessionId: randomUUID(), role: 'customer', surface: 'mobile', expiresAt: new Date(Date.now() + 60_000) } as Principal;
  const counts = async () => ({ rows: await world.prisma.feedbackSubmission.count(), events: (await world.outboxRows()).length });

  beforeAll(async () => {
    world = await feedbackMedium('feedback_medium', [
      FeedbackRepository,
      FeedbackService,
      { provide: Outbox, useFactory: (schema: DatabaseSchema) => new FailingOutbox(schema.name), inject: [DatabaseSchema] },
    ]);
    feedback = world.get(FeedbackService);
    outbox = world.get(Outbox) as FailingOutbox;
  });

  afterAll(() => world?.close());

  beforeEach(async () => {
    outbox.failing = false;
    await world.clear();
  });

  describe('guest (spec §4.3 rules 1-4)', () => {
    it('stores the submission with its origin and records feedback.submitted naming the guest', async () => {
      await feedback.submitAsGuest(guestBody({ phone: '  ' }), ORIGIN);
      const [row] = await world.prisma.feedbackSubmission.findMany();
      expect(row).toMatchObject({ userId: null, name: 'Asha Guest', email: 'asha@example.com', phone: null, category: 'bug_report', ...ORIGIN });
      expect(await world.outboxRows()).toEqual([
        {
          type: 'feedback.submitted',
          payload: {
            id: row!.id,
            category: 'bug_report',
            subject: 'The app crashes',
            message: 'When I open the timetable\nit closes.',
            createdAt: row!.createdAt.toISOString(),
            from: { type: 'guest', name: 'Asha Guest', email: 'asha@example.com', phone: null },
          },
        },
      ]);
    });

    it('a filled honeypot writes no row and no outbox entry; a whitespace-only one is empty, and the submission is stored', async () => {
      await feedback.submitAsGuest(guestBody({ companyWebsite: ' https://spam.example ' }), ORIGIN);
      expect(await counts()).toEqual({ rows: 0, events: 0 });
      await feedback.submitAsGuest(guestBody({ companyWebsite: '   ' }), ORIGIN);
      expect(await counts()).toEqual({ rows: 1, events: 1 });
    });
  });

  describe('signed in (spec §4.3)', () => {
    it('the account is the sender: no name, email or phone stored, its publicId all the event carries of it', async () => {
      await feedback.submitAsCustomer(customer, customerBody(), { ip: null, deviceId: 'phone-9', userAgent: null });
      const [row] = await world.prisma.feedbackSubmission.findMany();
      expect(row).toMatchObject({ userId: customerId, name: null, email: null, phone: null, subject: 'Dark mode', deviceId: 'phone-9' });
      const [event] = await world.outboxRows();
      expect(event?.payload).toMatchObject({ id: row!.id, category: 'feature_request', subject: 'Dark mode', from: { type: 'customer', userId: customerId } });
    });

    it.each([
      ['absent', undefined],
      ['null', null],
      ['blank', '   '],
    ])('a subject %s is none, in the row and the event', async (_name, subject) => {
      await feedback.submitAsCustomer(customer, customerBody({ subject }), ORIGIN);
      expect((await world.prisma.feedbackSubmission.findMany())[0]?.subject).toBeNull();
      expect((await world.outboxRows())[0]?.payload).toMatchObject({ subject: null });
    });
  });

  it('stores the submission and its event in one transaction: neither is kept when the second write fails (spec §6)', async () => {
    outbox.failing = true;
    await expect(feedback.submitAsGuest(guestBody(), ORIGIN)).rejects.toThrow(/too long/);
    await expect(feedback.submitAsCustomer(customer, customerBody(), ORIGIN)).rejects.toThrow(/too long/);
    expect(await counts()).toEqual({ rows: 0, events: 0 });
  });
});
