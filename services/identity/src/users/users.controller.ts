import { Controller, Param } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { CurrentPrincipal } from '@school/auth/nest';
import { type BodyOf, type QueryOf, type ResponseOf, USER_ROUTES as ROUTES } from '@school/contracts';
import { paginated, success } from '@school/http';
import { PublicIdPipe } from '@school/http/nest';
import { Route, RouteBody, RouteQuery } from '@school/service';
import { Profiles } from '../accounts/profiles.js';
import { UserSessionsService } from './user-sessions.service.js';
import { CreateUser } from './use-cases/create-user.js';
import { DeleteUser } from './use-cases/delete-user.js';
import { EraseUser } from './use-cases/erase-user.js';
import { ResetMfa } from './use-cases/reset-mfa.js';
import { UpdateUser } from './use-cases/update-user.js';

const USER_ID = new PublicIdPipe('USER_NOT_FOUND');

/** Contract §6 users admin: the routes of USER_ROUTES. A publicId that is not a UUID names no user: 404 USER_NOT_FOUND. */
@Controller()
export class UsersController {
  constructor(
    private readonly profiles: Profiles,
    private readonly createUser: CreateUser,
    private readonly updateUser: UpdateUser,
    private readonly deleteUser: DeleteUser,
    private readonly eraseUser: EraseUser,
    private readonly userSessions: UserSessionsService,
    private readonly resetMfaUseCase: ResetMfa,
  ) {}

  @Route(ROUTES.create)
  async create(@RouteBody() body: BodyOf<typeof ROUTES.create>): Promise<ResponseOf<typeof ROUTES.create>> {
    return success('User created', await this.createUser.execute(body));
  }

  @Route(ROUTES.list)
  async list(@RouteQuery() query: QueryOf<typeof ROUTES.list>): Promise<ResponseOf<typeof ROUTES.list>> {
    const { profiles, page } = await this.profiles.list(query);
    return paginated('Users', profiles, page);
  }

  @Route(ROUTES.get)
  async get(@Param('publicId', USER_ID) publicId: string): Promise<ResponseOf<typeof ROUTES.get>> {
    return success('User', await this.profiles.get(publicId));
  }

  @Route(ROUTES.update)
  async update(
    @CurrentPrincipal() actor: Principal,
    @Param('publicId', USER_ID) publicId: string,
    @RouteBody() body: BodyOf<typeof ROUTES.update>,
  ): Promise<ResponseOf<typeof ROUTES.update>> {
    return success('User updated', await this.updateUser.execute(actor, publicId, body));
  }

  @Route(ROUTES.remove)
  async remove(@CurrentPrincipal() actor: Principal, @Param('publicId', USER_ID) publicId: string): Promise<ResponseOf<typeof ROUTES.remove>> {
    await this.deleteUser.execute(actor, publicId);
    return success('User deleted', null);
  }

  @Route(ROUTES.erase)
  async erase(@CurrentPrincipal() actor: Principal, @Param('publicId', USER_ID) publicId: string): Promise<ResponseOf<typeof ROUTES.erase>> {
    await this.eraseUser.execute(actor, publicId);
    return success('User erased', null);
  }

  @Route(ROUTES.sessions)
  async sessions(@Param('publicId', USER_ID) publicId: string): Promise<ResponseOf<typeof ROUTES.sessions>> {
    return success('Sessions', await this.userSessions.list(publicId));
  }

  @Route(ROUTES.endSessions)
  async endSessions(@Param('publicId', USER_ID) publicId: string): Promise<ResponseOf<typeof ROUTES.endSessions>> {
    return success('Sessions ended', await this.userSessions.endAll(publicId));
  }

  @Route(ROUTES.resetMfa)
  async resetMfa(@Param('publicId', USER_ID) publicId: string): Promise<ResponseOf<typeof ROUTES.resetMfa>> {
    await this.resetMfaUseCase.execute(publicId);
    return success('Two-step sign-in turned off', null);
  }
}
