import { z } from 'zod';
import { AppError } from './app-error.js';
import { MAX_FIELD_ERRORS } from './envelope.js';
import { multiLineText, NUL_MESSAGE, queryBoolean, refuseWithCode, singleLine, trimmedString } from '@school/contracts';
import { fieldErrors, validate } from './validation.js';
// The bound stretched on a loaded machine, as jest's timeouts are (TEST_TIME_SCALE).

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

/** One test a labelled value: `schema` accepts it (`true`) or refuses it (`false`). */
function eachJudged(schema: z.ZodType, accepted: boolean, cases: readonly (readonly [label: string, value: string])[]): void {
  it.each(cases)(`${accepted ? 'accepts' : 'refuses'} %s`, (_label, value) => {
    expect(schema.safeParse(value).success).toBe(accepted);
  });
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

  it("throws a rule's own catalogue code (refuseWithCode), with its status and message, once the shape is valid", () => {
    const coded = body.transform((value, ctx) => (value.name === 'otp' ? (refuseWithCode(ctx, 'AUTH_OTP_REQUIRED'), z.NEVER) : value));
    const error = failureOf(() => validate(coded, { name: 'otp' }));
    expect({ code: error.code, status: error.status, message: error.message, errors: error.errors }).toEqual({
      code: 'AUTH_OTP_REQUIRED',
      status: 400,
      message: 'OTP is required',
      errors: undefined,
    });
    expect(failureOf(() => validate(coded, { name: 7 })).code).toBe('VALIDATION_FAILED');
  });
});

describe('validate: NUL in any string (contract §3)', () => {
  // A schema that takes anything: the NUL rule must not depend on the schema remembering it.
  const anything = z.unknown();

  it.each([
    ['a top-level field', { name: 'a\u0000b' }, 'name'],
    ['a nested field', { deviceInfo: { deviceName: 'x\u0000' } }, 'deviceInfo.deviceName'],
    ['an array item', { keys: ['ok', '\u0000'] }, 'keys.1'],
    ['a query value', { search: '\u0000' }, 'search'],
    ['the whole input', '\u0000', 'body'],
  ])('refuses a NUL in %s', (_label, input, field) => {
    const error = failureOf(() => validate(anything, input));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.status).toBe(400);
    expect(error.errors).toEqual([{ field, message: NUL_MESSAGE }]);
  });

  it('refuses a NUL in an object key, naming it printably', () => {
    const error = failureOf(() => validate(anything, { ['k\u0000ey']: 1 }));
    expect(error.errors).toEqual([{ field: 'k\uFFFDey', message: NUL_MESSAGE }]);
  });

  it('answers with the route status (422 on authenticated feedback)', () => {
    expect(failureOf(() => validate(anything, { message: '\u0000' }, { status: 422 })).status).toBe(422);
  });

  it('walks a deeply nested body without exhausting the stack', () => {
    let deep: unknown = 'end\u0000';
    for (let depth = 0; depth < 100_000; depth += 1) deep = [deep];
    expect(failureOf(() => validate(anything, deep)).errors).toHaveLength(1);
  });

  it('lets NUL-free input through to the schema', () => {
    expect(validate(anything, { name: 'plain', list: [1, 'two', null] })).toEqual({ name: 'plain', list: [1, 'two', null] });
  });
});

describe('errors[] cap (contract §3)', () => {
  const strict = z.strictObject({ email: z.string() });

  it('lists at most 20 errors for 60,000 undeclared fields', () => {
    const input: Record<string, unknown> = { email: 'a@b.c' };
    for (let index = 0; index < 60_000; index += 1) input[`k${index}`] = 1;
    const error = failureOf(() => validate(strict, input));
    expect(MAX_FIELD_ERRORS).toBe(20);
    expect(error.errors).toHaveLength(20);
    expect(error.errors?.[0]).toEqual({ field: 'k0', message: 'Unknown field' });
  });

  it('caps many issues of other kinds, and NUL hits', () => {
    const list = z.strictObject({ values: z.array(z.string()) });
    expect(failureOf(() => validate(list, { values: Array.from({ length: 5_000 }, () => 1) })).errors).toHaveLength(20);
    expect(failureOf(() => validate(list, { values: Array.from({ length: 5_000 }, () => '\u0000') })).errors).toHaveLength(20);
    expect(fieldErrors(list.safeParse({ values: [1, 2, 3] }).error!, 2)).toHaveLength(2);
  });

  it('never echoes a long field name whole', () => {
    const error = failureOf(() => validate(strict, { email: 'a', ['x'.repeat(100_000)]: 1 }));
    expect(error.errors?.[0]?.field.length).toBeLessThanOrEqual(101);
  });

  it('holds for any AppError built with errors', () => {
    const many = Array.from({ length: 100 }, (_unused, index) => ({ field: `f${index}`, message: 'bad' }));
    expect(new AppError('VALIDATION_FAILED', undefined, { errors: many }).errors).toHaveLength(20);
  });
});

describe('singleLine (contract §3)', () => {
  const name = singleLine(1, 120);

  eachJudged(name, false, [
    ['a C0 control', 'Bell\u0007'],
    ['a line feed inside', 'Two\nlines'],
    ['a tab inside', 'Tab\there'],
    ['DEL', 'Del\u007F'],
    ['a C1 control', 'Next\u0085line'],
    ['a line separator', 'a\u2028b'],
    ['a right-to-left override', 'Evil\u202Egnp.exe'],
    ['a left-to-right embedding', 'a\u202Ab'],
    ['a first-strong isolate', 'a\u2068b\u2069'],
  ]);

  eachJudged(name, true, [
    ['plain Latin', 'Ada Lovelace'],
    ['Devanagari', 'राम बहादुर'],
    ['Arabic with a right-to-left mark', 'علي\u200F 2'],
    ['an Arabic letter mark and a left-to-right mark', 'a\u061Cb\u200Ec'],
    ['emoji', 'Ana 🌸'],
  ]);

  it('trims first, so a trailing line break is not refused but removed', () => {
    expect(name.parse('  Ada\n')).toBe('Ada');
  });
});

describe('multiLineText (contract §3)', () => {
  const message = multiLineText(1, 5000);

  it('accepts line breaks and tabs', () => {
    expect(message.parse('line one\r\nline\ttwo\nthree\u2028four')).toBe('line one\r\nline\ttwo\nthree\u2028four');
  });

  eachJudged(message, false, [
    ['a C0 control', 'a\u0007b'],
    ['a vertical tab', 'a\u000Bb'],
    ['a form feed', 'a\u000Cb'],
    ['a C1 control', 'a\u0085b'],
    ['a bidi override', 'a\u202Eb'],
    ['a bidi isolate', 'a\u2066b\u2069'],
  ]);
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
