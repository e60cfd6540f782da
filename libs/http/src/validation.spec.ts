import { z } from 'zod';
import { AppError } from './app-error.js';
import { queryBoolean, trimmedString, validate } from './validation.js';

const body = z.strictObject({ name: trimmedString(1, 5), nested: z.strictObject({ flag: z.boolean() }).optional() });

function failureOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('validate', () => {
  it('returns the parsed value, trimmed', () => {
    expect(validate(body, { name: '  ab  ' })).toEqual({ name: 'ab' });
  });

  it('lists every undeclared field, including __proto__ and nested ones', () => {
    const error = failureOf(() => validate(body, JSON.parse('{"name":"a","__proto__":{"x":1},"extra":1,"nested":{"flag":true,"y":2}}')));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.status).toBe(400);
    expect(error.errors?.map((item) => item.field).sort()).toEqual(['__proto__', 'extra', 'nested.y']);
  });

  it('counts length after trimming, so blank is missing', () => {
    const error = failureOf(() => validate(body, { name: '   ' }));
    expect(error.errors).toEqual([{ field: 'name', message: 'must not be blank' }]);
  });

  it('answers with the status the route asks for', () => {
    expect(failureOf(() => validate(body, {}, { status: 422 })).status).toBe(422);
  });
});

describe('queryBoolean', () => {
  it.each([
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('reads %s as %s', (raw, expected) => {
    expect(queryBoolean.parse(raw)).toBe(expected);
  });

  it('refuses anything else', () => {
    expect(queryBoolean.safeParse('yes').success).toBe(false);
  });
});
