import { clientIpOf, FORWARDED_FOR_SIGNATURE_HEADER, forwardedForHeaders } from './forwarded-client.js';

const SECRET = 'a-forwarding-secret-of-32-characters!';
const signed = (forwardedFor: string, secret = SECRET) => forwardedForHeaders(secret, forwardedFor);

describe('the client address a service takes (docs/decisions/0007)', () => {
  it('is the first X-Forwarded-For entry when the gateway signed the header', () => {
    expect(clientIpOf({ headers: signed('203.0.113.9, 10.0.0.2'), ip: '10.0.0.2' }, SECRET)).toBe('203.0.113.9');
    expect(clientIpOf({ headers: signed('2001:db8::1'), ip: '10.0.0.2' }, SECRET)).toBe('2001:db8::1');
  });

  it('is the socket address for a header without a signature, with one made under another key, or for another value', () => {
    expect(clientIpOf({ headers: { 'x-forwarded-for': '203.0.113.9' }, ip: '10.0.0.7' }, SECRET)).toBe('10.0.0.7');
    expect(clientIpOf({ headers: signed('203.0.113.9', 'another-secret-of-at-least-32-chars'), ip: '10.0.0.7' }, SECRET)).toBe('10.0.0.7');
    const replayed = { ...signed('203.0.113.9'), 'x-forwarded-for': '203.0.113.10' };
    expect(clientIpOf({ headers: replayed, ip: '10.0.0.7' }, SECRET)).toBe('10.0.0.7');
    expect(clientIpOf({ headers: { ...signed('203.0.113.9'), [FORWARDED_FOR_SIGNATURE_HEADER]: 'short' }, ip: '10.0.0.7' }, SECRET)).toBe('10.0.0.7');
  });

  it('is the socket address while there is no secret, and when the signed entry is not an address', () => {
    expect(clientIpOf({ headers: signed('203.0.113.9'), ip: '::ffff:10.0.0.7' }, undefined)).toBe('10.0.0.7');
    expect(clientIpOf({ headers: signed('evil<script>'), ip: '::1' }, SECRET)).toBe('::1');
    expect(clientIpOf({ headers: {} }, SECRET)).toBeNull();
  });
});
