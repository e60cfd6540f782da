import type { OwnSessionDto, SessionDto } from '@school/contracts';
import type { SessionRecord } from './sessions.repository.js';

/** A live session in the answers of contract §10 (its schema: @school/contracts); device fields the login did not send are null. */
export type SessionView = SessionDto;

/** The caller's own sessions also say which one the calling token belongs to. */
export type OwnSessionView = OwnSessionDto;

export function toSessionView(session: SessionRecord): SessionView {
  return {
    id: session.id,
    deviceId: session.deviceId,
    deviceType: session.deviceType,
    deviceName: session.deviceName,
    createdAt: session.createdAt.toISOString(),
    lastUsedAt: session.lastUsedAt.toISOString(),
  };
}

export function toOwnSessionView(session: SessionRecord, currentSessionId: string): OwnSessionView {
  return { ...toSessionView(session), current: session.id === currentSessionId.toLowerCase() };
}
