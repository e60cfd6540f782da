import { Injectable } from '@nestjs/common';

/** The time credentials are issued, expire and are redeemed at; one seam so tests can move it. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
