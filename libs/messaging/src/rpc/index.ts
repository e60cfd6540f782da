export * from './rpc-client.js';
export * from './rpc-errors.js';
export * from './rpc-server.js';
export { DIRECT_REPLY_TO, RPC_FAILURES, RPC_HEADERS, type RpcFailure, type RpcReply } from './rpc-wire.js';
