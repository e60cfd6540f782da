import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { Authenticated, CurrentPrincipal } from '@school/auth/nest';
import { success } from '@school/http';
import { ZodPipe } from '@school/http/nest';
import { type CustomerFeedbackBody, customerFeedbackBody, type GuestFeedbackBody, guestFeedbackBody } from './dto/feedback-body.dto.js';
import { FeedbackService } from './feedback.service.js';
import { Origin, type RequestOrigin } from './request-origin.js';

const RECEIVED = { status: 'received' } as const;
const ACKNOWLEDGEMENT = 'Thank you for your feedback';

/** Spec §4.3: two separate routes, so a signed-in caller cannot post the guest body (rule 1). */
@Controller('api/mobile/feedback')
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  /**
   * Any valid access token (contract §4: routes outside the surface-bound ones decide by
   * permission, and posting feedback needs none, so customers, who hold none, may). 422 for every
   * body failure (contract §3).
   */
  @Post()
  @HttpCode(201)
  @Authenticated()
  async submit(@CurrentPrincipal() principal: Principal, @Body(new ZodPipe(customerFeedbackBody, { status: 422 })) body: CustomerFeedbackBody, @Origin() origin: RequestOrigin) {
    await this.feedback.submitAsCustomer(principal, body, origin);
    return success(ACKNOWLEDGEMENT, RECEIVED);
  }

  /** Rule 3: the same 200 whether stored or discarded; no id, no echo. */
  @Post('public')
  @HttpCode(200)
  async submitAsGuest(@Body(new ZodPipe(guestFeedbackBody)) body: GuestFeedbackBody, @Origin() origin: RequestOrigin) {
    await this.feedback.submitAsGuest(body, origin);
    return success(ACKNOWLEDGEMENT, RECEIVED);
  }
}
