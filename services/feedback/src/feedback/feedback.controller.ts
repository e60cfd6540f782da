import { Controller } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { CurrentPrincipal } from '@school/auth/nest';
import { type BodyOf, FEEDBACK_ROUTES, type ResponseOf } from '@school/contracts';
import { success } from '@school/http';
import { Route, RouteBody } from '@school/service';
import { FeedbackService } from './feedback.service.js';
import { Origin, type RequestOrigin } from './request-origin.js';

const RECEIVED = { status: 'received' } as const;
const ACKNOWLEDGEMENT = 'Thank you for your feedback';

/** Spec §4.3: the routes of FEEDBACK_ROUTES. */
@Controller()
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  @Route(FEEDBACK_ROUTES.submit)
  async submit(
    @CurrentPrincipal() principal: Principal,
    @RouteBody() body: BodyOf<typeof FEEDBACK_ROUTES.submit>,
    @Origin() origin: RequestOrigin,
  ): Promise<ResponseOf<typeof FEEDBACK_ROUTES.submit>> {
    await this.feedback.submitAsCustomer(principal, body, origin);
    return success(ACKNOWLEDGEMENT, RECEIVED);
  }

  @Route(FEEDBACK_ROUTES.submitAsGuest)
  async submitAsGuest(@RouteBody() body: BodyOf<typeof FEEDBACK_ROUTES.submitAsGuest>, @Origin() origin: RequestOrigin): Promise<ResponseOf<typeof FEEDBACK_ROUTES.submitAsGuest>> {
    await this.feedback.submitAsGuest(body, origin);
    return success(ACKNOWLEDGEMENT, RECEIVED);
  }
}
