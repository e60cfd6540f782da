import { contextFromTraceparent, currentTraceparent, inSpan, SpanKind } from '@school/telemetry';
import type { Job } from 'bullmq';

/** Job data carrying the trace context of the event that asked for it (BullMQ has no message headers). */
export type Traced<Data> = Data & { traceparent?: string | null };

export function traced<Data extends object>(data: Data): Traced<Data> {
  return { ...data, traceparent: currentTraceparent() };
}

/** Runs a job's work in a consumer span continuing the trace of its event (`process <queue>`). */
export function inJobSpan<T>(queue: string, job: Job<Traced<object>>, work: () => Promise<T>): Promise<T> {
  const attributes = {
    'messaging.system': 'bullmq',
    'messaging.operation.type': 'process',
    'messaging.destination.name': queue,
    ...(job.id && { 'messaging.message.id': job.id }),
  };
  return inSpan(`process ${queue}`, { kind: SpanKind.CONSUMER, parent: contextFromTraceparent(job.data.traceparent), attributes }, work);
}
