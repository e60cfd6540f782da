/** Compile-time checks (typecheck only, never run): @RpcHandler accepts only a method of its contract's request and answer. */
import { defineRpc, GEOGRAPHY_CHECK, type RpcRequest } from '@school/contracts';
import { z } from 'zod';
import { RpcHandler } from '@school/messaging/nest';

const OTHER = defineRpc({ name: 'identity.other', request: z.object({ id: z.number() }).strict(), answer: z.object({ referenced: z.boolean() }).strict() });

export class Handlers {
  @RpcHandler(GEOGRAPHY_CHECK)
  good(request: RpcRequest<typeof GEOGRAPHY_CHECK>) {
    return request.provinceId > 0 ? { valid: true as const, claimId: 'c' } : { valid: false as const, reason: 'province_not_found' as const };
  }

  // @ts-expect-error the answer of another contract
  @RpcHandler(GEOGRAPHY_CHECK)
  wrongAnswer(_request: RpcRequest<typeof GEOGRAPHY_CHECK>) {
    return { referenced: true };
  }

  // @ts-expect-error the request of another contract
  @RpcHandler(OTHER)
  wrongRequest(request: RpcRequest<typeof GEOGRAPHY_CHECK>) {
    return { referenced: request.provinceId > 0 };
  }
}
