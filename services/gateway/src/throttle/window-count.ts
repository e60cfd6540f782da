/** Hits so far in the current window (this one included) and when that window ends. */
export interface WindowCount {
  count: number;
  resetInMs: number;
}

/** `cost` requests counted at once; with `wholeLimit`, a hit that would pass it counts nothing. */
export interface HitWeight {
  cost: number;
  wholeLimit?: number;
}

export const SINGLE_HIT: HitWeight = { cost: 1 };
