// The microservices parameter decorators a transport's controllers use, so services need no direct dependency.
export { Ctx, Payload } from '@nestjs/microservices';
export * from './amqp-event.transport.js';
export * from './event-error.filter.js';
export * from './event-pattern.js';
export * from './event-transport.module.js';
export * from './inbox.module.js';
export * from './messaging.module.js';
export * from './nest-logger.js';
export * from './outbox.module.js';
export * from './rpc-handler.decorator.js';
export * from './rpc.module.js';
export * from './start-event-transport.js';
export * from './audit.module.js';
export * from './events-controller.js';
export * from './start-event-service.js';
export * from './event-service.module.js';
