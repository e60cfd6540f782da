export * from './served-routes.js';
export * from './use-case-context.js';
export * from './medium-world.js';
