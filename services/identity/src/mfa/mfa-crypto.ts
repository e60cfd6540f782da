import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * What MFA_ENCRYPTION_KEY protects: TOTP secrets, encrypted with AES-256-GCM (a fresh 96-bit IV
 * each, the user id bound as additional data so a row copied onto another account does not
 * decrypt), and recovery codes, stored as HMAC-SHA256. Each use has its own key derived from the
 * configured one with HKDF-SHA256.
 */
export class MfaCrypto {
  private readonly secretKey: Buffer;
  private readonly codeKey: Buffer;

  constructor(configuredKey: string) {
    const material = Buffer.from(configuredKey, 'utf8');
    this.secretKey = Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), 'totp-secret', 32));
    this.codeKey = Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), 'recovery-code', 32));
  }

  /** `<iv>.<tag>.<ciphertext>`, each base64url. */
  encryptSecret(userId: number, secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.secretKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(String(userId)));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
  }

  /** Throws when the stored value was not encrypted for this user under this key. */
  decryptSecret(userId: number, stored: string): string {
    const [iv, tag, ciphertext] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (!iv || !tag || !ciphertext) throw new Error('malformed encrypted TOTP secret');
    const decipher = createDecipheriv('aes-256-gcm', this.secretKey, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(String(userId)));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  }

  hashRecoveryCode(code: string): string {
    return createHmac('sha256', this.codeKey).update(code, 'utf8').digest('hex');
  }
}
