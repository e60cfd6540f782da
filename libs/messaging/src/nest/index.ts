export * from './messaging.module.js';
export * from './nest-logger.js';
export * from './outbox.module.js';
