import { Module } from '@nestjs/common';
import { EVENT_TYPES } from '@school/contracts';
import { eventsController, handledBy, InboxModule } from '@school/messaging/nest';
import { GeographyModule } from '../geography/geography.module.js';
import { AddressUsagesRepository } from './address-usages.repository.js';
import { AddressUsagesService } from './address-usages.service.js';

/** What reference-data consumes (`reference-data.events`, its retry queues and dead-letter queue). */
export const ADDRESS_EVENTS = { consumer: 'reference-data', bindings: [EVENT_TYPES.userAddressChanged, EVENT_TYPES.userErased] } as const;

/** Users' geography usages, from identity's address events and erasures. */
@Module({
  imports: [InboxModule, GeographyModule],
  controllers: [
    eventsController({
      [EVENT_TYPES.userAddressChanged]: handledBy(AddressUsagesService, 'handle'),
      [EVENT_TYPES.userErased]: handledBy(AddressUsagesService, 'handleErased'),
    }),
  ],
  providers: [AddressUsagesRepository, AddressUsagesService],
})
export class AddressUsagesModule {}
