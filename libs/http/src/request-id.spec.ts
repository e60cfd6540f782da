import { requestId } from './request-id.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const of = (value?: string | string[]) => requestId({ headers: value === undefined ? {} : { 'x-request-id': value } });

describe('requestId', () => {
  it.each(['0190b6a4-0000-7000-8000-000000000000', '01HZX3Q0J5W5ZK8Y6V2P4T9ABC', 'trace:span.1', 'dGVzdA+/=', 'a'.repeat(128)])('keeps %s', (id) => {
    expect(of(id)).toBe(id);
  });

  it.each([undefined, '', 'a'.repeat(129), 'has space', 'new\nline', '<script>', ['a', 'b']])('replaces %p with a new UUID', (value) => {
    expect(of(value)).toMatch(UUID);
  });
});
