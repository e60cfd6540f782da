/** Every RPC failure a caller can see. */
export abstract class RpcError extends Error {
  constructor(
    readonly contract: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Why no answer came: the caller must not guess, and says 503 (see `code`). */
export type RpcUnavailableReason =
  /** No answer within the call's deadline (no server running, server too slow, request expired). */
  | 'deadline'
  /** The caller's channel to the broker is not open (broker down, reconnecting). */
  | 'not_connected'
  /** The channel closed while the call waited for its answer. */
  | 'connection_lost'
  /** The broker had no queue for the contract: its server has never run here. */
  | 'no_server'
  /** The server took the request but its handler failed (its database down, a bug): no answer. */
  | 'server_failed';

/**
 * No usable answer: the shared HTTP error mapping (`isDependencyUnavailable` in `@school/http`)
 * recognises its `code` and answers 503 SERVICE_UNAVAILABLE, never a 500 and never a guess.
 */
export class RpcUnavailableError extends RpcError {
  override readonly name = 'RpcUnavailableError';
  readonly code = 'RPC_UNAVAILABLE';

  constructor(
    contract: string,
    readonly reason: RpcUnavailableReason,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(contract, `${contract}: ${detail}`, options);
  }
}

/**
 * A request or an answer that does not match the contract's schema: a bug on one side (two
 * versions of the contract deployed), so the caller's request fails as any bug does (500).
 */
export class RpcContractError extends RpcError {
  override readonly name = 'RpcContractError';

  constructor(
    contract: string,
    readonly side: 'request' | 'answer',
    readonly issues: string,
  ) {
    super(contract, `${contract}: the ${side} does not match the contract: ${issues}`);
  }
}
