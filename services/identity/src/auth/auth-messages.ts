/** Success messages of the authentication routes (both surfaces say the same). */
export const AUTH_MESSAGES = {
  login: 'Logged in',
  refresh: 'Tokens refreshed',
  logout: 'Logged out',
  me: 'Profile',
  permissions: 'Permissions',
  passwordSet: 'Password updated',
  sessions: 'Sessions',
  sessionEnded: 'Session ended',
  otherSessionsEnded: 'Other sessions ended',
} as const;
