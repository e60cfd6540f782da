export * from './tcp-proxy.js';
export * from './test-broker.js';
