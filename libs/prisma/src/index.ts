export * from './client-factory.js';
