/** Contract §10: an account's live sessions at most; a login beyond them ends the least recently used one. */
export const MAX_LIVE_SESSIONS = 50;
