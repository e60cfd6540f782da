import { randomUUID } from 'node:crypto';
import { AppError } from '@school/http';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export function randomPrefix(): string {
  return `test:auth:${randomUUID()}:`;
}

/** The AppError code a promise rejects with. */
export async function failureCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  throw new Error('expected a rejection');
}
