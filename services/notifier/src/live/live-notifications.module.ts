import { Module } from '@nestjs/common';
import { LiveNotificationHub } from './live-notification.hub.js';
import { LiveNotificationsController } from './live-notifications.controller.js';

@Module({
  controllers: [LiveNotificationsController],
  providers: [LiveNotificationHub],
  exports: [LiveNotificationHub],
})
export class LiveNotificationsModule {}
