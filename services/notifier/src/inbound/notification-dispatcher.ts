import { Inject, Injectable } from '@nestjs/common';
import type { ReceivedEvent } from '@school/messaging';
import { APP_CONFIG } from '@school/service';
import type { NotifierConfig } from '../config.js';
import { EmailQueue } from '../email/email.queue.js';
import { LiveNotificationHub } from '../live/live-notification.hub.js';
import { SmsQueue } from '../sms/sms.queue.js';
import { isNotified, runEffect } from './notification-effects.js';

/** Causes what each event causes (NOTIFICATION_EFFECTS), with the queues and the live hub. */
@Injectable()
export class NotificationDispatcher {
  constructor(
    private readonly email: EmailQueue,
    private readonly sms: SmsQueue,
    private readonly live: LiveNotificationHub,
    @Inject(APP_CONFIG) private readonly config: NotifierConfig,
  ) {}

  async dispatch({ messageId, event }: ReceivedEvent): Promise<void> {
    if (!isNotified(event)) return; // not bound to the notifier's queue
    const { email, sms, live, config } = this;
    await runEffect(event, { email, sms, live, config, messageId, emailJob: `${messageId}_email`, smsJob: `${messageId}_sms` });
  }
}
