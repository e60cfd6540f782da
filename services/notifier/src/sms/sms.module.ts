import { Module } from '@nestjs/common';
import { APP_CONFIG } from '@school/service';
import type { NotifierConfig } from '../config.js';
import { NotificationChannelsModule } from '../jobs/notification-channel.js';
import { LogSmsDriver } from './log-sms.driver.js';
import { SMS_DRIVER } from './sms-driver.js';
import { SmsQueue } from './sms.queue.js';
import { SmsWorker } from './sms.worker.js';

@Module({
  imports: [NotificationChannelsModule],
  providers: [
    {
      provide: SMS_DRIVER,
      // The only driver today; `log` chosen explicitly also shows codes in production logs.
      useFactory: (config: NotifierConfig) => new LogSmsDriver(config.SMS_DRIVER === 'log' || config.NODE_ENV !== 'production'),
      inject: [APP_CONFIG],
    },
    SmsQueue,
    SmsWorker,
  ],
  exports: [SmsQueue],
})
export class SmsModule {}
