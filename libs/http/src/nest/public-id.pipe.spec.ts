import { AppError } from '../app-error.js';
import { PublicIdPipe } from './public-id.pipe.js';

describe('PublicIdPipe', () => {
  const pipe = new PublicIdPipe('USER_NOT_FOUND');

  it('hands on a UUID in lower case', () => {
    expect(pipe.transform('0190B6A4-0000-7000-8000-00000000ABCD')).toBe('0190b6a4-0000-7000-8000-00000000abcd');
  });

  it.each(['not-a-uuid', '1', '', "x'; DROP TABLE users; --", '0190b6a4-0000-7000-8000-00000000abcd0', undefined])("answers the record's 404 for %p", (value) => {
    expect(() => pipe.transform(value)).toThrow(AppError);
    try {
      pipe.transform(value);
    } catch (error) {
      expect((error as AppError).code).toBe('USER_NOT_FOUND');
    }
  });
});
