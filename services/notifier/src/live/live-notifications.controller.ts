import type { ServerResponse } from 'node:http';
import { Controller, Req, Res } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { CurrentPrincipal } from '@school/auth/nest';
import { NOTIFICATION_ROUTES } from '@school/contracts';
import { Route } from '@school/service';
import { LiveNotificationHub } from './live-notification.hub.js';

interface StreamRequest {
  id: string;
}

interface StreamReply {
  hijack(): void;
  raw: ServerResponse;
}

/** Contract §7: the route of NOTIFICATION_ROUTES. */
@Controller()
export class LiveNotificationsController {
  constructor(private readonly hub: LiveNotificationHub) {}

  @Route(NOTIFICATION_ROUTES.stream)
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
