import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module.js';
import { MfaModule } from '../mfa/mfa.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { RetentionService } from './retention.service.js';

@Module({
  imports: [SessionsModule, CredentialsModule, MfaModule],
  providers: [RetentionService],
})
export class RetentionModule {}
