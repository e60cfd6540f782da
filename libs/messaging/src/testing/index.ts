export * from './tcp-proxy.js';
export * from './test-broker.js';
export * from './audit-entries.js';
export * from './until-consuming.js';
export * from './audited-request.js';
export * from './rpc-stand-in.js';
