import type { z } from 'zod';

/**
 * A question one service answers for others over RabbitMQ, declared once and used by both sides:
 * its name (`<serving service>.<question>`, the routing key and, prefixed, the serving queue), the
 * schema of the request and the schema of the answer. The caller validates the request before
 * sending and the answer on receipt; the server validates the request on receipt and its own
 * answer before sending.
 */
export interface RpcContract<Request extends z.ZodType = z.ZodType, Answer extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly request: Request;
  readonly answer: Answer;
}

/** What a caller passes, and a handler receives (after parsing). */
export type RpcRequest<Contract extends RpcContract> = z.output<Contract['request']>;
/** What a handler returns and a caller receives (after parsing). */
export type RpcAnswer<Contract extends RpcContract> = z.output<Contract['answer']>;

/** `<service>.<question>`: lower case, dots between words, the first word the serving service. */
const CONTRACT_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9_-]*)+$/;

export function defineRpc<Request extends z.ZodType, Answer extends z.ZodType>(contract: { name: string; request: Request; answer: Answer }): RpcContract<Request, Answer> {
  if (!CONTRACT_NAME.test(contract.name) || contract.name.length > 120) {
    throw new Error(`RPC contract name "${contract.name}" must match ${CONTRACT_NAME} (at most 120 characters)`);
  }
  return Object.freeze({ name: contract.name, request: contract.request, answer: contract.answer });
}
