export * from './events/event-payloads.js';
export * from './events/event-types.js';
export * from './rpc/address-contracts.js';
export * from './rpc/rpc-contract.js';
