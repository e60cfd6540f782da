import { type DynamicModule, Module } from '@nestjs/common';
import { EmailModule } from '../email/email.module.js';
import { LiveNotificationsModule } from '../live/live-notifications.module.js';
import { SmsModule } from '../sms/sms.module.js';
import { InboundEventsController } from './inbound-events.controller.js';
import { InboundEventsService } from './inbound-events.service.js';
import { DATABASE_SCHEMA, InboxRepository } from './inbox.repository.js';
import { NotificationDispatcher } from './notification-dispatcher.js';

@Module({})
export class InboundEventsModule {
  /** `databaseSchema`: where the inbox table lives (the service's schema, or a test's). */
  static forRoot(databaseSchema: string): DynamicModule {
    return {
      module: InboundEventsModule,
      imports: [EmailModule, SmsModule, LiveNotificationsModule],
      controllers: [InboundEventsController],
      providers: [{ provide: DATABASE_SCHEMA, useValue: databaseSchema }, InboxRepository, NotificationDispatcher, InboundEventsService],
    };
  }
}
