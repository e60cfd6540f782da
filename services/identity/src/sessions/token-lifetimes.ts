/** Contract §4: access tokens live 15 minutes, refresh tokens 30 days. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * A revocation outlives every access token of the session: TTL plus a margin for clocks of the
 * verifying processes running slightly behind identity's.
 */
export const REVOCATION_TTL_SECONDS = ACCESS_TOKEN_TTL_SECONDS + 60;
