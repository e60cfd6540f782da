import { Module } from '@nestjs/common';
import { SessionsRepository } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';

/** Sessions, refresh-token rotation and revocation; needs SigningKeyService (global KeysModule). */
@Module({
  providers: [SessionsRepository, SessionsService],
  exports: [SessionsService],
})
export class SessionsModule {}
