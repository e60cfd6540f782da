import type { ErrorCode } from '@school/http';

/** What the rules of spec §2.7 / §3.2 need to know of a stored session. */
export interface SessionState {
  startDate: string;
  endDate: string;
  isCurrent: boolean;
}

/** The fields of a PATCH the rules look at. */
export interface SessionPatch {
  startDate?: string | undefined;
  endDate?: string | undefined;
  isCurrent?: boolean | undefined;
}

/** Spec §2.7, §4.6 rules 3-4: endDate strictly after startDate (ISO dates compare as strings). */
export function datesValid(startDate: string, endDate: string): boolean {
  return endDate > startDate;
}

/** The range a PATCH leaves: an end it does not carry is the stored one (spec §4.6 rule 3). */
export function mergedRange(stored: SessionState, patch: SessionPatch): { startDate: string; endDate: string } {
  return { startDate: patch.startDate ?? stored.startDate, endDate: patch.endDate ?? stored.endDate };
}

export type PatchDecision =
  | { refuse: ErrorCode }
  /** `becomesCurrent`: the incumbent is unset first, then this row set, in one transaction. */
  | { refuse?: undefined; becomesCurrent: boolean };

/**
 * Table §3.2 for a PATCH, before any write. There is at most one current row, so a current row is
 * the only current one: unsetting it is refused (ACADEMIC_SESSION_CURRENT_REQUIRED). `isCurrent:
 * true` on the current row changes nothing; `isCurrent: false` on another row changes nothing.
 * An inverted or zero-length merged range is ACADEMIC_SESSION_DATES_INVALID.
 */
export function decidePatch(stored: SessionState, patch: SessionPatch): PatchDecision {
  if (stored.isCurrent && patch.isCurrent === false) return { refuse: 'ACADEMIC_SESSION_CURRENT_REQUIRED' };
  const range = mergedRange(stored, patch);
  if (!datesValid(range.startDate, range.endDate)) return { refuse: 'ACADEMIC_SESSION_DATES_INVALID' };
  return { becomesCurrent: patch.isCurrent === true && !stored.isCurrent };
}

/** Table §3.2, DELETE: the current session cannot be deleted. */
export function deleteRefusal(stored: Pick<SessionState, 'isCurrent'>): ErrorCode | undefined {
  return stored.isCurrent ? 'ACADEMIC_SESSION_IS_CURRENT' : undefined;
}
