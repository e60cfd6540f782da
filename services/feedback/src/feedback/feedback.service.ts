import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { Outbox } from '@school/messaging';
import { EVENT_TYPES, type EventPayload } from '@school/contracts';
import type { CustomerFeedbackBody, GuestFeedbackBody } from '@school/contracts';
import { FeedbackRepository, type NewFeedbackSubmission } from './feedback.repository.js';
import type { RequestOrigin } from './request-origin.js';

type Sender = EventPayload<typeof EVENT_TYPES.feedbackSubmitted>['from'];

/**
 * Spec §4.3: an accepted submission is stored and records `feedback.submitted` in the same
 * statement (spec §6: one transaction); the notifier mails SUPPORT_EMAIL and tells the live holders of
 * Feedback_READ. Nothing is ever read back: feedback is one-way.
 */
@Injectable()
export class FeedbackService {
  private readonly logger = new Logger(FeedbackService.name);

  constructor(
    private readonly submissions: FeedbackRepository,
    private readonly outbox: Outbox,
  ) {}

  /** The signed-in account is the sender; its publicId is all the event carries of it. */
  async submitAsCustomer(principal: Principal, body: CustomerFeedbackBody, origin: RequestOrigin): Promise<void> {
    await this.accept({ ...body, userId: principal.userId }, { type: 'customer', userId: principal.userId }, origin);
  }

  /**
   * Rule 4: a filled honeypot is logged at warning level and nothing else happens (no transaction,
   * no row, no event); the caller cannot tell, as both ends answer the same.
   */
  async submitAsGuest(body: GuestFeedbackBody, origin: RequestOrigin): Promise<void> {
    const { companyWebsite, ...fields } = body;
    if (companyWebsite) {
      this.logger.warn({ ip: origin.ip, deviceId: origin.deviceId }, 'Guest feedback discarded: honeypot field filled');
      return;
    }
    await this.accept(fields, { type: 'guest', name: fields.name, email: fields.email, phone: fields.phone }, origin);
  }

  private async accept(fields: Omit<NewFeedbackSubmission, 'id' | 'createdAt' | keyof RequestOrigin>, from: Sender, origin: RequestOrigin): Promise<void> {
    const submission = { id: randomUUID(), ...fields, ...origin, createdAt: new Date() };
    const event = this.outbox.entry(EVENT_TYPES.feedbackSubmitted, {
      id: submission.id,
      category: submission.category,
      subject: submission.subject ?? null,
      message: submission.message,
      createdAt: submission.createdAt.toISOString(),
      from,
    });
    await this.submissions.createWithEvent(submission, event);
  }
}
