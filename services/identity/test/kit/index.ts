// The one test kit of identity: the app on a real socket, accounts and sign-in, credentials and events.
export * from './accounts.js';
export * from './credentials.js';
export * from './identity-app.js';
