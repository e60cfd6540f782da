export * from './deadline.js';
