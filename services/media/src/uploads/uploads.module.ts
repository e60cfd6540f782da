import multipart from '@fastify/multipart';
import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { APP_CONFIG } from '@school/service';
import type { FastifyInstance } from 'fastify';
import type { MediaConfig } from '../config.js';
import { InstallationSecretsRepository } from '../storage/installation-secrets.repository.js';
import { signedUrlSecretOf, storageOf, type StorageWiring } from '../storage/storage.factory.js';
import { STORAGE } from '../storage/storage.js';
import { UrlSigner } from '../storage/url-signer.js';
import { CONVERSION_GATE, ConversionGate } from './conversion-gate.js';
import { FILE_URLS } from './file-urls.js';
import { FilesOfAccount } from './files-of-account.js';
import { MobileUploadsController } from './mobile-uploads.controller.js';
import { SignedFilesController } from './signed-files.controller.js';
import { UPLOAD_LIMITS, uploadLimitsOf } from './upload-limits.js';
import { UploadsController } from './uploads.controller.js';
import { UploadsRepository } from './uploads.repository.js';
import { UploadsService } from './uploads.service.js';

const STORAGE_WIRING = Symbol('STORAGE_WIRING');

/** Spec §4.4, §4.5 and contract §8: uploads on both surfaces, their storage and their URLs; a person's files for their copy (contract §11, over RPC). */
@Module({
  controllers: [UploadsController, MobileUploadsController, SignedFilesController],
  providers: [
    InstallationSecretsRepository,
    {
      provide: STORAGE_WIRING,
      useFactory: async (config: MediaConfig, secrets: InstallationSecretsRepository) => storageOf(config, await signedUrlSecretOf(config, secrets)),
      inject: [APP_CONFIG, InstallationSecretsRepository],
    },
    { provide: STORAGE, useFactory: (wiring: StorageWiring) => wiring.storage, inject: [STORAGE_WIRING] },
    { provide: FILE_URLS, useFactory: (wiring: StorageWiring) => wiring.urls, inject: [STORAGE_WIRING] },
    { provide: UrlSigner, useFactory: (wiring: StorageWiring) => wiring.signer, inject: [STORAGE_WIRING] },
    { provide: UPLOAD_LIMITS, useFactory: uploadLimitsOf, inject: [APP_CONFIG] },
    {
      provide: CONVERSION_GATE,
      useFactory: (config: MediaConfig) => new ConversionGate(config.IMAGE_CONVERSIONS, config.IMAGE_CONVERSION_WAIT_MS, config.IMAGE_CONVERSION_MEGAPIXELS * 1_000_000),
      inject: [APP_CONFIG],
    },
    UploadsRepository,
    UploadsService,
    FilesOfAccount,
  ],
})
export class UploadsModule implements OnModuleInit {
  constructor(@Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost) {}

  /**
   * Multipart bodies are streamed part by part; each route sets its own file size limit. An upload
   * answered before its body was read whole (413, a refused file) leaves the rest unread and the
   * socket paused, so the client's close would go unnoticed and the connection linger: the rest
   * is discarded instead (the gateway stops sending once it has the answer).
   */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    void fastify.register(multipart, { throwFileSizeLimit: true });
    fastify.addHook('onResponse', (request, _reply, done) => {
      if (request.raw.complete) return done();
      // A parser still attached would stall on the part nobody reads and pause the request again.
      request.raw.unpipe();
      request.raw.resume();
      done();
    });
  }
}
