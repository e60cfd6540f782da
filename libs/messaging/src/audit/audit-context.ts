import { AsyncLocalStorage } from 'node:async_hooks';

/** Who acted (contract §13): the store adds the email beside identity's accounts. */
export interface AuditActor {
  publicId: string;
  role: string;
}

/** Where a change came from: the request's caller, client address (contract §4), user agent and request id. */
export interface AuditContext {
  actor: AuditActor | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

const NO_REQUEST: AuditContext = { actor: null, ip: null, userAgent: null, requestId: null };

/** Read when an entry is recorded, not when the request starts: the guard names the caller later. */
type ContextSource = () => AuditContext;

const storage = new AsyncLocalStorage<ContextSource>();

/** Runs `work` (a request's handling) with `source` as the context of the entries it records. */
export function runWithAuditContext<T>(source: ContextSource, work: () => T): T {
  return storage.run(source, work);
}

/** The context of the request in progress; all null outside one (a CLI, a start-up job). */
export function currentAuditContext(): AuditContext {
  return storage.getStore()?.() ?? NO_REQUEST;
}
