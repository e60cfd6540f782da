import { Controller, Param } from '@nestjs/common';
import { ACADEMIC_SESSION_ROUTES as ROUTES, type BodyOf, type QueryOf, type ResponseOf } from '@school/contracts';
import { paginated, success } from '@school/http';
import { PublicIdPipe } from '@school/http/nest';
import { Route, RouteBody, RouteQuery } from '@school/service';
import { AcademicSessionsService } from './academic-sessions.service.js';

const SESSION_ID = new PublicIdPipe('ACADEMIC_SESSION_NOT_FOUND');

/** Spec §4.6: the routes of ACADEMIC_SESSION_ROUTES. */
@Controller()
export class AcademicSessionsController {
  constructor(private readonly sessions: AcademicSessionsService) {}

  @Route(ROUTES.list)
  async list(@RouteQuery() query: QueryOf<typeof ROUTES.list>): Promise<ResponseOf<typeof ROUTES.list>> {
    const { sessions, page } = await this.sessions.list(query);
    return paginated('Academic sessions', sessions, page);
  }

  @Route(ROUTES.create)
  async create(@RouteBody() body: BodyOf<typeof ROUTES.create>): Promise<ResponseOf<typeof ROUTES.create>> {
    return success('Academic session created', await this.sessions.create(body));
  }

  @Route(ROUTES.update)
  async update(@Param('publicId', SESSION_ID) publicId: string, @RouteBody() body: BodyOf<typeof ROUTES.update>): Promise<ResponseOf<typeof ROUTES.update>> {
    return success('Academic session updated', await this.sessions.update(publicId, body));
  }

  @Route(ROUTES.remove)
  async remove(@Param('publicId', SESSION_ID) publicId: string): Promise<ResponseOf<typeof ROUTES.remove>> {
    await this.sessions.remove(publicId);
    return success('Academic session deleted', null);
  }
}
