import { type DynamicModule, Module } from '@nestjs/common';
import { JwksController } from './jwks.controller.js';
import { KEYS_OPTIONS, type KeysModuleOptions } from './keys.options.js';
import { SigningKeyRepository } from './signing-key.repository.js';
import { SigningKeyService } from './signing-key.service.js';

/**
 * Access-token signing and `GET /.well-known/jwks.json`. The repository injects the generated
 * PrismaClient, which the service's DatabaseModule provides globally.
 */
@Module({})
export class KeysModule {
  static forRoot(options: KeysModuleOptions): DynamicModule {
    return {
      module: KeysModule,
      controllers: [JwksController],
      providers: [{ provide: KEYS_OPTIONS, useValue: options }, SigningKeyRepository, SigningKeyService],
      exports: [SigningKeyService],
    };
  }
}
