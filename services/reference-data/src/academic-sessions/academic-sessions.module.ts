import { Module } from '@nestjs/common';
import { AcademicSessionsController } from './academic-sessions.controller.js';
import { AcademicSessionsRepository } from './academic-sessions.repository.js';
import { AcademicSessionsService } from './academic-sessions.service.js';

/** Spec §4.6: academic sessions and their list cache (ListCacheModule). */
@Module({
  controllers: [AcademicSessionsController],
  providers: [AcademicSessionsRepository, AcademicSessionsService],
})
export class AcademicSessionsModule {}
