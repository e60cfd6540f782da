import { Module } from '@nestjs/common';
import { GeographyModule } from '../geography/geography.module.js';
import { SchoolProfileController } from './school-profile.controller.js';
import { SchoolProfileRepository } from './school-profile.repository.js';
import { SchoolProfileService } from './school-profile.service.js';

/** Contract §6 `GET` / `PUT /api/school-profile`. */
@Module({
  imports: [GeographyModule],
  controllers: [SchoolProfileController],
  providers: [SchoolProfileRepository, SchoolProfileService],
})
export class SchoolProfileModule {}
