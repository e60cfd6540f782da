import { MfaCrypto } from './mfa-crypto.js';

const KEY = 'a-test-mfa-encryption-key-of-32-characters';

describe('MfaCrypto (contract §12: secrets encrypted at rest, recovery codes hashed)', () => {
  const crypto = new MfaCrypto(KEY);

  it('encrypts a TOTP secret with AES-256-GCM, a fresh IV each time, and decrypts it for its account only', () => {
    const stored = crypto.encryptSecret(7, 'JBSWY3DPEHPK3PXP');
    expect(stored).not.toContain('JBSWY3DPEHPK3PXP');
    expect(crypto.encryptSecret(7, 'JBSWY3DPEHPK3PXP')).not.toBe(stored);
    expect(crypto.decryptSecret(7, stored)).toBe('JBSWY3DPEHPK3PXP');
    expect(() => crypto.decryptSecret(8, stored)).toThrow();
    expect(() => new MfaCrypto(`${KEY}-other`).decryptSecret(7, stored)).toThrow();
    const [iv, tag, body] = stored.split('.');
    expect(() => crypto.decryptSecret(7, [iv, tag, `A${body!.slice(1)}`].join('.'))).toThrow();
  });

  it('hashes recovery codes under the key (HMAC-SHA256)', () => {
    const hash = crypto.hashRecoveryCode('abcde-fghjk');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(crypto.hashRecoveryCode('abcde-fghjk')).toBe(hash);
    expect(new MfaCrypto(`${KEY}-other`).hashRecoveryCode('abcde-fghjk')).not.toBe(hash);
  });
});
