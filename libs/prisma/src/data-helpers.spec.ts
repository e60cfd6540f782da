import { deleteInBatches, escapeLike, isForeignKeyViolation, isSerializationFailure, isUniqueViolation } from './data-helpers.js';

/** The shape measured here from Prisma 7 + @prisma/adapter-pg on a duplicate live email. */
const prismaDuplicate = Object.assign(new Error('Unique constraint failed on the constraint: `users_email_lower_live_key`'), {
  code: 'P2002',
  meta: {
    modelName: 'User',
    driverAdapterError: {
      name: 'DriverAdapterError',
      cause: { originalCode: '23505', kind: 'UniqueConstraintViolation', constraint: { index: 'users_email_lower_live_key' }, table: 'users' },
    },
  },
});
const pgDuplicate = Object.assign(new Error('duplicate key value violates unique constraint "sessions_current_key"'), { code: '23505', constraint: 'sessions_current_key' });

describe('isUniqueViolation', () => {
  it('recognises Prisma and pg duplicates, and the index when one is named', () => {
    expect(isUniqueViolation(prismaDuplicate)).toBe(true);
    expect(isUniqueViolation(prismaDuplicate, 'users_email_lower_live_key')).toBe(true);
    expect(isUniqueViolation(prismaDuplicate, 'users_phone_live_key')).toBe(false);
    expect(isUniqueViolation(pgDuplicate, 'sessions_current_key')).toBe(true);
    expect(isUniqueViolation(Object.assign(new Error('x'), { code: 'P2002', meta: { target: ['email'] } }), 'email')).toBe(true);
  });

  it('leaves other failures alone', () => {
    expect(isUniqueViolation(Object.assign(new Error('fk'), { code: 'P2003' }))).toBe(false);
    expect(isUniqueViolation(new Error('duplicate'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });
});

describe('isSerializationFailure', () => {
  it.each(['40001', '40P01', 'P2034'])('recognises %s', (code) => {
    expect(isSerializationFailure(Object.assign(new Error('conflict'), { code }))).toBe(true);
  });

  it('recognises the adapter kind and nothing else', () => {
    expect(isSerializationFailure({ code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'TransactionWriteConflict' } } } })).toBe(true);
    expect(isSerializationFailure(pgDuplicate)).toBe(false);
  });
});

describe('isForeignKeyViolation', () => {
  it('recognises Prisma and pg foreign-key refusals only', () => {
    expect(isForeignKeyViolation(Object.assign(new Error('fk'), { code: 'P2003' }))).toBe(true);
    expect(isForeignKeyViolation(Object.assign(new Error('fk'), { code: '23503' }))).toBe(true);
    expect(isForeignKeyViolation(pgDuplicate)).toBe(false);
  });
});

describe('escapeLike', () => {
  it('makes the LIKE metacharacters literal', () => {
    expect(escapeLike('100%_a\\b')).toBe('100\\%\\_a\\\\b');
    expect(escapeLike('plain')).toBe('plain');
  });
});

describe('deleteInBatches', () => {
  it('repeats full batches and stops after a short one', async () => {
    const results = [3, 3, 1];
    const calls: number[] = [];
    const total = await deleteInBatches(3, async () => {
      const deleted = results.shift() ?? 0;
      calls.push(deleted);
      return deleted;
    });
    expect(total).toBe(7);
    expect(calls).toEqual([3, 3, 1]);
  });
});
