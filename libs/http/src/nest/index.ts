export * from './envelope-exception.filter.js';
export * from './zod.pipe.js';
export * from './public-id.pipe.js';
