import { Module } from '@nestjs/common';
import { InboxModule } from '@school/messaging/nest';
import { EmailModule } from '../email/email.module.js';
import { LiveNotificationsModule } from '../live/live-notifications.module.js';
import { SmsModule } from '../sms/sms.module.js';
import { InboundEventsController } from './inbound-events.controller.js';
import { InboundEventsService } from './inbound-events.service.js';
import { NotificationDispatcher } from './notification-dispatcher.js';

@Module({
  imports: [InboxModule, EmailModule, SmsModule, LiveNotificationsModule],
  controllers: [InboundEventsController],
  providers: [NotificationDispatcher, InboundEventsService],
})
export class InboundEventsModule {}
