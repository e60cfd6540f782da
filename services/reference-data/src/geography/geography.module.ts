import { Module } from '@nestjs/common';
import { GeographyCheck } from './geography-check.js';
import { GeographyController } from './geography.controller.js';
import { GeographyReferences } from './geography-references.js';
import { GeographyRepository } from './geography.repository.js';
import { GeographyService } from './geography.service.js';

/** Spec §4.7 geography lookups, and the GEOGRAPHY_CHECK answers (RpcModule serves it). */
@Module({
  controllers: [GeographyController],
  providers: [GeographyRepository, GeographyReferences, GeographyService, GeographyCheck],
  exports: [GeographyCheck, GeographyRepository],
})
export class GeographyModule {}
