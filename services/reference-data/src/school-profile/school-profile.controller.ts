import { Controller } from '@nestjs/common';
import { type BodyOf, type ResponseOf, SCHOOL_PROFILE_ROUTES as ROUTES } from '@school/contracts';
import { success } from '@school/http';
import { Route, RouteBody } from '@school/service';
import { SchoolProfileService } from './school-profile.service.js';

/** Contract §6: the routes of SCHOOL_PROFILE_ROUTES. */
@Controller()
export class SchoolProfileController {
  constructor(private readonly profile: SchoolProfileService) {}

  @Route(ROUTES.get)
  async get(): Promise<ResponseOf<typeof ROUTES.get>> {
    return success('School profile', await this.profile.get());
  }

  @Route(ROUTES.put)
  async put(@RouteBody() body: BodyOf<typeof ROUTES.put>): Promise<ResponseOf<typeof ROUTES.put>> {
    return success('School profile saved', await this.profile.put(body));
  }
}
