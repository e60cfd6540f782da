export * from './keys.config.js';
export * from './keys.module.js';
export * from './keys.options.js';
export * from './signing-key.service.js';
