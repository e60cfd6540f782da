import { clientInfoOf } from './client-info.js';

describe('client info of a request', () => {
  it('takes the client address ClientAddressModule resolved', () => {
    expect(clientInfoOf({ headers: { 'x-forwarded-for': '198.51.100.1' }, ip: '127.0.0.1', clientIp: '203.0.113.9' }).ip).toBe('203.0.113.9');
  });

  it('without it, the socket address: an unsigned X-Forwarded-For is what any caller can write', () => {
    expect(clientInfoOf({ headers: { 'x-forwarded-for': '203.0.113.9' }, ip: '127.0.0.1' }).ip).toBe('127.0.0.1');
    expect(clientInfoOf({ headers: {} }).ip).toBeNull();
  });

  it('keeps the user agent, cut to the column size', () => {
    expect(clientInfoOf({ headers: { 'user-agent': 'App/1.0' } }).userAgent).toBe('App/1.0');
    expect(clientInfoOf({ headers: { 'user-agent': 'x'.repeat(5000) } }).userAgent).toHaveLength(1024);
    expect(clientInfoOf({ headers: {} }).userAgent).toBeNull();
  });
});
