import { Module } from '@nestjs/common';
import { LoginBackoffRepository } from './login-backoff.repository.js';
import { LoginBackoffService } from './login-backoff.service.js';

/** The per-email login back-off of contract §9, used by login and cleared by password resets. */
@Module({
  providers: [LoginBackoffRepository, LoginBackoffService],
  exports: [LoginBackoffService],
})
export class LoginBackoffModule {}
