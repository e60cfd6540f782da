import type { ServerResponse } from 'node:http';
import { Controller, Get, Req, Res } from '@nestjs/common';
import { PERMISSIONS, type Principal } from '@school/auth';
import { CurrentPrincipal, RequirePermissions } from '@school/auth/nest';
import { LiveNotificationHub } from './live-notification.hub.js';

interface StreamRequest {
  id: string;
}

interface StreamReply {
  hijack(): void;
  raw: ServerResponse;
}

/** Contract §7: `GET /api/notifications/stream`, Server-Sent Events for holders of Feedback_READ. */
@Controller('api/notifications')
export class LiveNotificationsController {
  constructor(private readonly hub: LiveNotificationHub) {}

  @Get('stream')
  @RequirePermissions(PERMISSIONS.Feedback_READ)
  stream(@Req() request: StreamRequest, @Res() reply: StreamReply, @CurrentPrincipal() principal: Principal): void {
    // The guard has run (401/403 envelopes); from here on the response is a stream we own.
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    response.write('retry: 5000\n: connected\n\n');
    // 'close' on the response: the client went away (or the stream was ended at shutdown).
    response.on('close', this.hub.attach(response, principal));
  }
}
