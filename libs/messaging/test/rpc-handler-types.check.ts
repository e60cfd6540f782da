/** Compile-time checks (typecheck only, never run): @RpcHandler accepts only a method of its contract's request and answer. */
import { ADDRESS_REFERENCES, GEOGRAPHY_CHECK, type RpcRequest } from '@school/messaging';
import { RpcHandler } from '@school/messaging/nest';

export class Handlers {
  @RpcHandler(GEOGRAPHY_CHECK)
  good(request: RpcRequest<typeof GEOGRAPHY_CHECK>) {
    return request.provinceId > 0 ? { valid: true as const } : { valid: false as const, reason: 'province_not_found' as const };
  }

  // @ts-expect-error the answer of another contract
  @RpcHandler(GEOGRAPHY_CHECK)
  wrongAnswer(_request: RpcRequest<typeof GEOGRAPHY_CHECK>) {
    return { referenced: true };
  }

  // @ts-expect-error the request of another contract
  @RpcHandler(ADDRESS_REFERENCES)
  wrongRequest(request: RpcRequest<typeof GEOGRAPHY_CHECK>) {
    return { referenced: request.provinceId > 0 };
  }
}
