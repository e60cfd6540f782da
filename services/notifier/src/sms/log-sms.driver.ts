import { Logger } from '@nestjs/common';
import type { SmsDriver, SmsMessage } from './sms-driver.js';

/**
 * Writes each SMS to the log instead of sending it. The code is masked unless `revealCodes`
 * (SMS_DRIVER=log chosen explicitly, or outside production), so production logs hold no secret.
 */
export class LogSmsDriver implements SmsDriver {
  private readonly logger = new Logger('SMS');

  constructor(private readonly revealCodes: boolean) {}

  async send(message: SmsMessage): Promise<void> {
    const text = this.revealCodes || !message.secret ? message.text : message.text.split(message.secret).join('******');
    this.logger.log({ to: message.to, text, msg: 'SMS (log driver)' });
  }
}
