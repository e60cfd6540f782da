export * from './bootstrap.js';
export * from './config.module.js';
export * from './core.module.js';
export * from './database.module.js';
export * from './health.module.js';
export * from './readiness.js';
export * from './run-service.js';
export * from './start-service.js';
