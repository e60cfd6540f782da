import { Logger } from '@nestjs/common';
import type { MessagingLogger } from '../logger.js';

/** A MessagingLogger writing through Nest's logger (the service's pino logger), tagged with `context`. */
export function nestMessagingLogger(context: string): MessagingLogger {
  const logger = new Logger(context);
  return {
    debug: (fields, message) => logger.debug({ ...fields, msg: message }),
    info: (fields, message) => logger.log({ ...fields, msg: message }),
    warn: (fields, message) => logger.warn({ ...fields, msg: message }),
    error: (fields, message) => logger.error({ ...fields, msg: message }),
  };
}
