import { Module } from '@nestjs/common';
import { KnownDevicesRepository } from './known-devices.repository.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';

/** Sessions, refresh-token rotation and revocation; needs SigningKeyService (global KeysModule). */
@Module({
  providers: [SessionsRepository, KnownDevicesRepository, SessionsService],
  exports: [SessionsService, KnownDevicesRepository],
})
export class SessionsModule {}
