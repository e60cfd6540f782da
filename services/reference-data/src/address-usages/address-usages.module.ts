import { Module } from '@nestjs/common';
import { EVENT_TYPES } from '@school/contracts';
import { InboxModule } from '@school/messaging/nest';
import { GeographyModule } from '../geography/geography.module.js';
import { AddressEventsController } from './address-events.controller.js';
import { AddressUsagesRepository } from './address-usages.repository.js';
import { AddressUsagesService } from './address-usages.service.js';

/** What reference-data consumes (`reference-data.events`, its retry queues and dead-letter queue). */
export const ADDRESS_EVENTS = { consumer: 'reference-data', bindings: [EVENT_TYPES.userAddressChanged] } as const;

/** Users' geography usages, from identity's address events. */
@Module({
  imports: [InboxModule, GeographyModule],
  controllers: [AddressEventsController],
  providers: [AddressUsagesRepository, AddressUsagesService],
})
export class AddressUsagesModule {}
