import { signForwardedFor } from '@school/auth';
import { ForwardedForSignatures } from './forwarded-signatures.js';

describe('ForwardedForSignatures', () => {
  it('signs as signForwardedFor does, under the secret it is given', () => {
    const signatures = new ForwardedForSignatures();
    expect(signatures.sign('secret-a', '203.0.113.7')).toBe(signForwardedFor('secret-a', '203.0.113.7'));
    expect(signatures.sign('secret-a', '203.0.113.7')).toBe(signForwardedFor('secret-a', '203.0.113.7'));
    expect(signatures.sign('secret-b', '203.0.113.7')).toBe(signForwardedFor('secret-b', '203.0.113.7'));
    expect(signatures.sign('secret-a', '203.0.113.7, 10.0.0.1')).toBe(signForwardedFor('secret-a', '203.0.113.7, 10.0.0.1'));
  });

  it('still signs correctly once values beyond its bound pushed the oldest out', () => {
    const signatures = new ForwardedForSignatures(2);
    for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.1']) expect(signatures.sign('s', ip)).toBe(signForwardedFor('s', ip));
  });
});
