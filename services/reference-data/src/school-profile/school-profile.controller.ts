import { Body, Controller, Get, Put } from '@nestjs/common';
import { PERMISSIONS } from '@school/auth';
import { RequirePermissions } from '@school/auth/nest';
import { success } from '@school/http';
import { ZodPipe } from '@school/http/nest';
import { type PutSchoolProfileBody, putSchoolProfileBody } from './dto/school-profile.dto.js';
import { SchoolProfileService } from './school-profile.service.js';

/** Contract §6 school profile: GET answers `data: null` before the first PUT; PUT answers 200. */
@Controller('api/school-profile')
export class SchoolProfileController {
  constructor(private readonly profile: SchoolProfileService) {}

  @Get()
  @RequirePermissions(PERMISSIONS.SchoolProfile_READ)
  async get() {
    return success('School profile', await this.profile.get());
  }

  @Put()
  @RequirePermissions(PERMISSIONS.SchoolProfile_UPDATE)
  async put(@Body(new ZodPipe(putSchoolProfileBody)) body: PutSchoolProfileBody) {
    return success('School profile saved', await this.profile.put(body));
  }
}
