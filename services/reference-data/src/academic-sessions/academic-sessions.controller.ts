import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { PERMISSIONS } from '@school/auth';
import { RequirePermissions } from '@school/auth/nest';
import { paginated, success } from '@school/http';
import { PublicIdPipe, ZodPipe } from '@school/http/nest';
import { AcademicSessionsService } from './academic-sessions.service.js';
import { type CreateAcademicSessionBody, createAcademicSessionBody, type UpdateAcademicSessionBody, updateAcademicSessionBody } from './dto/academic-session-body.dto.js';
import { type ListAcademicSessionsQuery, listAcademicSessionsQuery } from './dto/list-academic-sessions.query.js';

const SESSION_ID = new PublicIdPipe('ACADEMIC_SESSION_NOT_FOUND');

/** Spec §4.6: the four academic-session routes, each behind its permission. */
@Controller('api/academic-sessions')
export class AcademicSessionsController {
  constructor(private readonly sessions: AcademicSessionsService) {}

  @Get()
  @RequirePermissions(PERMISSIONS.AcademicSessions_READ)
  async list(@Query(new ZodPipe(listAcademicSessionsQuery)) query: ListAcademicSessionsQuery) {
    const { sessions, page } = await this.sessions.list(query);
    return paginated('Academic sessions', sessions, page);
  }

  @Post()
  @HttpCode(201)
  @RequirePermissions(PERMISSIONS.AcademicSessions_CREATE)
  async create(@Body(new ZodPipe(createAcademicSessionBody)) body: CreateAcademicSessionBody) {
    return success('Academic session created', await this.sessions.create(body));
  }

  @Patch(':publicId')
  @RequirePermissions(PERMISSIONS.AcademicSessions_UPDATE)
  async update(@Param('publicId', SESSION_ID) publicId: string, @Body(new ZodPipe(updateAcademicSessionBody)) body: UpdateAcademicSessionBody) {
    return success('Academic session updated', await this.sessions.update(publicId, body));
  }

  @Delete(':publicId')
  @RequirePermissions(PERMISSIONS.AcademicSessions_DELETE)
  async remove(@Param('publicId', SESSION_ID) publicId: string) {
    await this.sessions.remove(publicId);
    return success('Academic session deleted', null);
  }
}
