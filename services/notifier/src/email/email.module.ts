import { Module } from '@nestjs/common';
import { APP_CONFIG } from '@school/service';
import type { NotifierConfig } from '../config.js';
import { NotificationChannelsModule } from '../jobs/notification-channel.js';
import { EmailQueue } from './email.queue.js';
import { EmailWorker } from './email.worker.js';
import { FileMailer, MAILER, SmtpMailer } from './mailer.js';

@Module({
  imports: [NotificationChannelsModule],
  providers: [
    {
      provide: MAILER,
      useFactory: (config: NotifierConfig) =>
        config.SMTP_URL
          ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM, config.EMAIL_CONCURRENCY, config.EMAIL_JOB_LOCK_MS)
          : new FileMailer(config.MAIL_OUTBOX_DIR, config.MAIL_FROM),
      inject: [APP_CONFIG],
    },
    EmailQueue,
    EmailWorker,
  ],
  exports: [EmailQueue],
})
export class EmailModule {}
