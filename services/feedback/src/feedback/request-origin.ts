import { isIP } from 'node:net';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** Column widths of feedback_submissions: longer values are cut to fit, never refused. */
const DEVICE_ID_MAX_LENGTH = 255;
const USER_AGENT_MAX_LENGTH = 1024;

/** Where a submission came from, stored with it. */
export interface RequestOrigin {
  ip: string | null;
  deviceId: string | null;
  userAgent: string | null;
}

interface RequestLike {
  headers: Record<string, string | string[] | undefined>;
  ip?: string;
}

function header(request: RequestLike, name: string, max: number): string | null {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 ? value.slice(0, max) : null;
}

/**
 * Feedback listens only behind the gateway, which sets `X-Forwarded-For` to the client address it
 * determined (first entry, contract §4); the socket address is the fallback for direct calls.
 */
export function requestOriginOf(request: RequestLike): RequestOrigin {
  const forwarded = request.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  const ip = first && isIP(first) ? first : request.ip && isIP(request.ip) ? request.ip : null;
  return { ip, deviceId: header(request, 'x-device-id', DEVICE_ID_MAX_LENGTH), userAgent: header(request, 'user-agent', USER_AGENT_MAX_LENGTH) };
}

/** `@Origin() origin: RequestOrigin` */
export const Origin = createParamDecorator((_data: unknown, context: ExecutionContext): RequestOrigin => requestOriginOf(context.switchToHttp().getRequest<RequestLike>()));
