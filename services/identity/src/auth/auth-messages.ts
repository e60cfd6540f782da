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
  mfaRequired: 'A second step is required',
  mfaStatus: 'Two-step sign-in',
  mfaStarted: 'Scan the code with an authenticator app, then confirm with a code',
  mfaEnabled: 'Two-step sign-in is on; keep these recovery codes safe',
  recoveryCodesReplaced: 'New recovery codes; the previous ones no longer work',
  mfaDisabled: 'Two-step sign-in is off',
} as const;
