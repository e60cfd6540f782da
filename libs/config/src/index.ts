export * from './config-error.js';
export * from './env.js';
export * from './environment.js';
export * from './load-config.js';
export * from './topology.js';
