import { SURFACES, type Surface } from '@school/contracts';

export { SURFACES, type Surface };

/** The access-token claim naming the surface that issued the token. */
export const SURFACE_CLAIM = 'srf';

export function isSurface(value: unknown): value is Surface {
  return value === SURFACES.admin || value === SURFACES.mobile;
}
