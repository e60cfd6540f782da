import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { PERMISSIONS, type Principal } from '@school/auth';
import { CurrentPrincipal, RequirePermissions } from '@school/auth/nest';
import { paginated, success } from '@school/http';
import { PublicIdPipe, ZodPipe } from '@school/http/nest';
import { type CreateUserBody, createUserBody, type UpdateUserBody, updateUserBody } from './dto/user-body.dto.js';
import { type ListUsersQuery, listUsersQuery } from './dto/list-users.query.js';
import { Profiles } from '../accounts/profiles.js';
import { UserSessionsService } from './user-sessions.service.js';
import { CreateUser } from './use-cases/create-user.js';
import { DeleteUser } from './use-cases/delete-user.js';
import { UpdateUser } from './use-cases/update-user.js';

const USER_ID = new PublicIdPipe('USER_NOT_FOUND');

/** Contract §6 users admin. A publicId that is not a UUID names no user: 404 USER_NOT_FOUND. */
@Controller('api/users')
export class UsersController {
  constructor(
    private readonly profiles: Profiles,
    private readonly createUser: CreateUser,
    private readonly updateUser: UpdateUser,
    private readonly deleteUser: DeleteUser,
    private readonly userSessions: UserSessionsService,
  ) {}

  @Post()
  @RequirePermissions(PERMISSIONS.Users_CREATE)
  async create(@Body(new ZodPipe(createUserBody)) body: CreateUserBody) {
    return success('User created', await this.createUser.execute(body));
  }

  @Get()
  @RequirePermissions(PERMISSIONS.Users_READ)
  async list(@Query(new ZodPipe(listUsersQuery)) query: ListUsersQuery) {
    const { profiles, page } = await this.profiles.list(query);
    return paginated('Users', profiles, page);
  }

  @Get(':publicId')
  @RequirePermissions(PERMISSIONS.Users_READ)
  async get(@Param('publicId', USER_ID) publicId: string) {
    return success('User', await this.profiles.get(publicId));
  }

  @Patch(':publicId')
  @RequirePermissions(PERMISSIONS.Users_UPDATE)
  async update(@CurrentPrincipal() actor: Principal, @Param('publicId', USER_ID) publicId: string, @Body(new ZodPipe(updateUserBody)) body: UpdateUserBody) {
    return success('User updated', await this.updateUser.execute(actor, publicId, body));
  }

  @Delete(':publicId')
  @RequirePermissions(PERMISSIONS.Users_DELETE)
  async remove(@CurrentPrincipal() actor: Principal, @Param('publicId', USER_ID) publicId: string) {
    await this.deleteUser.execute(actor, publicId);
    return success('User deleted', null);
  }

  @Get(':publicId/sessions')
  @RequirePermissions(PERMISSIONS.Users_READ)
  async sessions(@Param('publicId', USER_ID) publicId: string) {
    return success('Sessions', await this.userSessions.list(publicId));
  }

  @Delete(':publicId/sessions')
  @RequirePermissions(PERMISSIONS.Users_UPDATE)
  async endSessions(@Param('publicId', USER_ID) publicId: string) {
    return success('Sessions ended', await this.userSessions.endAll(publicId));
  }
}
