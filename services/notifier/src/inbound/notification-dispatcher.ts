import { Inject, Injectable } from '@nestjs/common';
import type { ReceivedEvent } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import { APP_CONFIG } from '@school/service';
import type { NotifierConfig } from '../config.js';
import { EmailQueue } from '../email/email.queue.js';
import { feedbackNotification } from '../live/live-notification.js';
import { LiveNotificationHub } from '../live/live-notification.hub.js';
import { SmsQueue } from '../sms/sms.queue.js';

/**
 * What each event causes. Job ids derive from the message id, so enqueueing one event twice
 * (a redelivery after a crash before the inbox commit) adds nothing the second time.
 */
@Injectable()
export class NotificationDispatcher {
  constructor(
    private readonly email: EmailQueue,
    private readonly sms: SmsQueue,
    private readonly live: LiveNotificationHub,
    @Inject(APP_CONFIG) private readonly config: NotifierConfig,
  ) {}

  async dispatch({ messageId, event }: ReceivedEvent): Promise<void> {
    const emailJob = `${messageId}_email`;
    const smsJob = `${messageId}_sms`;
    switch (event.type) {
      case EVENT_TYPES.feedbackSubmitted:
        // Spec §6: to the configured shop inbox only, never to an address from the submission.
        await this.email.enqueue(emailJob, { template: 'feedback_submitted', to: this.config.SUPPORT_EMAIL, data: event.payload });
        await this.live.publish(feedbackNotification(messageId, event.payload));
        return;
      case EVENT_TYPES.invitationCreated:
        await this.email.enqueue(emailJob, { template: 'invitation', to: event.payload.email, data: event.payload });
        return;
      case EVENT_TYPES.passwordResetRequested: {
        const { delivery, name, otp, expiresAt } = event.payload;
        if (delivery.channel === 'email') {
          await this.email.enqueue(emailJob, { template: 'password_reset', to: delivery.email, data: { name, otp, expiresAt, resetUrl: delivery.resetUrl } });
        } else {
          await this.sms.enqueue(smsJob, { template: 'password_reset_code', to: delivery.phone, otp, expiresAt });
        }
        return;
      }
      case EVENT_TYPES.passwordChanged:
        await this.email.enqueue(emailJob, { template: 'password_changed', to: event.payload.email, data: event.payload });
        return;
      case EVENT_TYPES.newDeviceSignedIn:
        await this.email.enqueue(emailJob, { template: 'new_device_sign_in', to: event.payload.email, data: event.payload });
        return;
      case EVENT_TYPES.recoveryCodeUsed:
        await this.email.enqueue(emailJob, { template: 'recovery_code_used', to: event.payload.email, data: event.payload });
        return;
      case EVENT_TYPES.mfaDisabled:
        await this.email.enqueue(emailJob, { template: 'mfa_disabled', to: event.payload.email, data: event.payload });
        return;
      case EVENT_TYPES.emailVerificationRequested:
        await this.email.enqueue(emailJob, { template: 'email_verification', to: event.payload.email, data: event.payload });
        return;
      case EVENT_TYPES.accountDeletedNotice:
        // Contract §11: the address of an erased account; once sent, nothing here keeps it (the inbox holds ids only).
        await this.email.enqueue(emailJob, { template: 'account_deleted', to: event.payload.email, data: event.payload }, { forgetOnceSent: true });
        return;
      case EVENT_TYPES.userErased:
        await this.email.forgetAddress(event.payload.emailDigest, 'account_deleted');
        return;
      case EVENT_TYPES.phoneVerificationRequested:
        await this.sms.enqueue(smsJob, { template: 'phone_verification_code', to: event.payload.phone, otp: event.payload.otp, expiresAt: event.payload.expiresAt });
        return;
    }
  }
}
