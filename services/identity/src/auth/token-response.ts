import type { TokenResponseDto } from '@school/contracts';

/** Login and refresh answer (contract §4): the token pair and the profile (its schema: @school/contracts). */
export type TokenResponse = TokenResponseDto;
