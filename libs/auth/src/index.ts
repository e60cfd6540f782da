export * from './authenticator.js';
export * from './jwt-verifier.js';
export * from './permissions.js';
export * from './principal.js';
export * from './redis.js';
export * from './roles.js';
export * from './session-revocations.js';
export * from './surfaces.js';
