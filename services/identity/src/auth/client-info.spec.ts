import { clientInfoOf } from './client-info.js';

describe('client info of a request', () => {
  it('takes the first X-Forwarded-For entry, as the gateway sets it', () => {
    expect(clientInfoOf({ headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.2' }, ip: '127.0.0.1' }).ip).toBe('203.0.113.9');
    expect(clientInfoOf({ headers: { 'x-forwarded-for': '2001:db8::1' }, ip: '127.0.0.1' }).ip).toBe('2001:db8::1');
  });

  it('falls back to the socket address when the header is absent or not an address', () => {
    expect(clientInfoOf({ headers: {}, ip: '127.0.0.1' }).ip).toBe('127.0.0.1');
    expect(clientInfoOf({ headers: { 'x-forwarded-for': 'evil<script>' }, ip: '::1' }).ip).toBe('::1');
    expect(clientInfoOf({ headers: {} }).ip).toBeNull();
  });

  it('keeps the user agent, cut to the column size', () => {
    expect(clientInfoOf({ headers: { 'user-agent': 'App/1.0' } }).userAgent).toBe('App/1.0');
    expect(clientInfoOf({ headers: { 'user-agent': 'x'.repeat(5000) } }).userAgent).toHaveLength(1024);
    expect(clientInfoOf({ headers: {} }).userAgent).toBeNull();
  });
});
