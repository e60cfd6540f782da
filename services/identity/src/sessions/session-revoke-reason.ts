/** Why a session ended; stored in sessions.revoked_reason. Spelled only here. */
export const SESSION_REVOKE_REASONS = {
  logout: 'logout',
  ban: 'ban',
  passwordReset: 'password_reset',
  passwordChanged: 'password_changed',
  reuse: 'reuse',
  deleted: 'deleted',
  roleChanged: 'role_changed',
  endedByUser: 'ended_by_user',
  endedByAdmin: 'ended_by_admin',
} as const;

export type SessionRevokeReason = (typeof SESSION_REVOKE_REASONS)[keyof typeof SESSION_REVOKE_REASONS];
