import { SetMetadata } from '@nestjs/common';
import type { z } from 'zod';
import type { RpcContract, RpcRequest } from '@school/contracts';

/** Metadata key under which `@RpcHandler` stores its contract on the method. */
export const RPC_HANDLER_METADATA = 'school:rpc-handler';

/** What a handler of `Contract` may be: takes the parsed request, returns (or resolves to) the answer. */
export type RpcHandlerMethod<Contract extends RpcContract> = (request: RpcRequest<Contract>) => Promise<z.input<Contract['answer']>> | z.input<Contract['answer']>;

/**
 * Marks a provider's method as the server of `contract` (RpcModule.forRoot `serves` lists the
 * contracts the service answers). The method receives the request already validated by the
 * contract; what it returns is validated by the contract before it is sent.
 *
 *   @RpcHandler(GEOGRAPHY_CHECK)
 *   check(request: RpcRequest<typeof GEOGRAPHY_CHECK>): Promise<RpcAnswer<typeof GEOGRAPHY_CHECK>> { ... }
 */
export function RpcHandler<Contract extends RpcContract>(contract: Contract) {
  return <Method extends RpcHandlerMethod<Contract>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<Method>): void => {
    SetMetadata(RPC_HANDLER_METADATA, contract)(target, key, descriptor);
  };
}
