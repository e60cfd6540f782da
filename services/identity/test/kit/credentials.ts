import { afterEach, jest } from '@jest/globals';
import { SERVICES } from '@school/config';
import { OUTBOX_TABLE, quoteIdent } from '@school/messaging';
import { EVENT_TYPES, type EventPayload, type EventType } from '@school/contracts';
import { UnitOfWork } from '@school/service';
import { Clock } from '../../src/credentials/clock.js';
import { InvitationsService } from '../../src/credentials/invitations.service.js';
import { MessageRequestsWorker } from '../../src/credentials/message-requests.worker.js';
import type { User } from '../../src/generated/prisma/client.js';
import type { IdentityUnderTest } from './identity-app.js';

/** The invitation POST /api/users sends, issued the same way (InvitationsService in a transaction). */
export async function invite(identity: IdentityUnderTest, user: User): Promise<void> {
  await identity.app.get(UnitOfWork).run((tx) => identity.app.get(InvitationsService).issue(tx, user));
}

/**
 * Serves now the forgot and resend requests the routes took (the worker's own schedule would do it
 * within MESSAGE_REQUESTS_INTERVAL_MS); resolves once they are served.
 */
export function serveMessageRequests(identity: IdentityUnderTest): Promise<void> {
  return identity.app.get(MessageRequestsWorker).drain();
}

export interface RecordedEvent {
  type: string;
  payload: Record<string, unknown>;
}

/** The events recorded in identity's outbox (a table of @school/messaging), oldest first; `types` narrows them. */
export function recordedEvents(identity: IdentityUnderTest, types?: readonly string[]): Promise<RecordedEvent[]> {
  const table = `${quoteIdent(SERVICES.identity.schema)}.${quoteIdent(OUTBOX_TABLE)}`;
  return identity.prisma.$queryRawUnsafe(`SELECT type, payload FROM ${table} WHERE $1::text[] IS NULL OR type = ANY($1) ORDER BY id`, types ?? null);
}

/** How many events of these types the flows recorded for `userId` (publicId). */
export async function countEventsOf(identity: IdentityUnderTest, types: readonly string[], userPublicId: string): Promise<number> {
  return (await recordedEvents(identity, types)).filter((event) => event.payload['userId'] === userPublicId).length;
}

/** Events the flows recorded in the outbox for `userId` (publicId), oldest first. */
type IdentityEventType = Exclude<EventType, typeof EVENT_TYPES.feedbackSubmitted | typeof EVENT_TYPES.auditEntryRecorded | typeof EVENT_TYPES.accountDeletedNotice>;

export async function eventsOf<Type extends IdentityEventType>(identity: IdentityUnderTest, type: Type, userPublicId: string): Promise<EventPayload<Type>[]> {
  const rows = await recordedEvents(identity, [type]);
  return rows.map((row) => row.payload as EventPayload<Type>).filter((payload) => payload.userId === userPublicId);
}

export async function lastEventOf<Type extends IdentityEventType>(identity: IdentityUnderTest, type: Type, userPublicId: string): Promise<EventPayload<Type>> {
  const events = await eventsOf(identity, type, userPublicId);
  const last = events.at(-1);
  if (!last) throw new Error(`no ${type} event for ${userPublicId}`);
  return last;
}

/** The token of a link sent in an email (`...?token=<token>`). */
export function tokenOf(link: string): string {
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/** Spans of the clocks tests move (suiteClock, retention, audit). */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The credentials' clock of a suite: `ahead(ms)` sets it `ms` ahead of real time, until the next `ahead` or the test's end. */
export function suiteClock(identity: IdentityUnderTest): { ahead(ms: number): void } {
  let restore: (() => void) | undefined;
  const back = () => {
    restore?.();
    restore = undefined;
  };
  afterEach(back);
  return {
    ahead(ms) {
      back();
      const spy = jest.spyOn(identity.app.get(Clock), 'now').mockImplementation(() => new Date(Date.now() + ms));
      restore = () => spy.mockRestore();
    },
  };
}
