export * from './auth.decorators.js';
export * from './auth.guard.js';
export * from './auth.metadata.js';
export * from './auth.module.js';
export * from './auth.options.js';
export * from './client-address.module.js';
