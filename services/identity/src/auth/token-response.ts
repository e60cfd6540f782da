import type { Profile } from '../accounts/profile.js';
import type { IssuedTokens } from '../sessions/sessions.service.js';

/** Login and refresh answer (contract §4): the token pair and the profile. */
export interface TokenResponse extends IssuedTokens {
  user: Profile;
}
