/** Why a session ended; stored in sessions.revoked_reason. Spelled only here. */
export const SESSION_REVOKE_REASONS = {
  logout: 'logout',
  ban: 'ban',
  passwordReset: 'password_reset',
  passwordChanged: 'password_changed',
  reuse: 'reuse',
  deleted: 'deleted',
  /** The account was erased (contract §11); its rows go in the same transaction. */
  erased: 'erased',
  roleChanged: 'role_changed',
  endedByUser: 'ended_by_user',
  endedByAdmin: 'ended_by_admin',
  /** The least recently used, ended by a login beyond the account's live-session cap (contract §10). */
  overCap: 'over_cap',
  /** Two-step sign-in turned on: every other session of the account ends (contract §12). */
  mfaEnabled: 'mfa_enabled',
  /** An administrator turned two-step sign-in off for the account (contract §12). */
  mfaReset: 'mfa_reset',
} as const;

export type SessionRevokeReason = (typeof SESSION_REVOKE_REASONS)[keyof typeof SESSION_REVOKE_REASONS];
