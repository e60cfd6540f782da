import { Injectable } from '@nestjs/common';
import { ADDRESS_REFERENCES, type RpcAnswer, type RpcRequest } from '@school/messaging';
import { RpcHandler } from '@school/messaging/nest';
import { UsersRepository } from './users.repository.js';

/**
 * Answers reference-data before it deletes or renames a geography row (spec §3.3): does any user's
 * address, soft-deleted users included, name this province, district or municipality?
 */
@Injectable()
export class AddressReferencesHandler {
  constructor(private readonly users: UsersRepository) {}

  @RpcHandler(ADDRESS_REFERENCES)
  async references(request: RpcRequest<typeof ADDRESS_REFERENCES>): Promise<RpcAnswer<typeof ADDRESS_REFERENCES>> {
    return { referenced: await this.users.isAddressReferenced(request.level, request.id) };
  }
}
