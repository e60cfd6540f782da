export * from './env.js';
export * from './load-config.js';
export * from './topology.js';
