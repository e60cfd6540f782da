import type { RpcContract } from '@school/contracts';
import { z } from 'zod';

/**
 * What travels in an answer's body: the handler's answer, or why there is none. The request's
 * body is the contract's request as JSON; its properties carry the rest (RPC_HEADERS).
 */
export const RPC_FAILURES = ['invalid_request', 'handler_failed'] as const;
export type RpcFailure = (typeof RPC_FAILURES)[number];

export const rpcReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), answer: z.unknown() }),
  z.object({ ok: z.literal(false), failure: z.enum(RPC_FAILURES), message: z.string().max(1000) }),
]);
export type RpcReply = z.infer<typeof rpcReplySchema>;

/** The pseudo-queue of RabbitMQ's direct reply-to: no reply queue per caller. */
export const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';

export const RPC_HEADERS = {
  /** Epoch milliseconds after which the caller no longer waits: a server drops the request then. */
  deadline: 'rpc-deadline',
} as const;

/** A zod error's first issues, short enough for a log line or a reply. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ')
    .slice(0, 500);
}

/** The durable queue the serving service consumes for `contract`, with the broker name prefix. */
export function rpcQueueName(contract: Pick<RpcContract, 'name'>, prefix = ''): string {
  return `${prefix}${contract.name}`;
}
