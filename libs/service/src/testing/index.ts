export * from './served-routes.js';
