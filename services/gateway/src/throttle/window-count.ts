/** Hits so far in the current window (this one included) and when that window ends. */
export interface WindowCount {
  count: number;
  resetInMs: number;
}
