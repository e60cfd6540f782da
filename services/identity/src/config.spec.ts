import { generateKeyPairSync } from 'node:crypto';
import { parseConfig } from '@school/config';
import { identityConfigRules, identityEnv } from './config.js';

const configOf = (env: Record<string, string>) => parseConfig(identityEnv, env, identityConfigRules);

const signingKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const otpSecret = 'a-production-secret-of-at-least-32-chars';
const FORWARDING_SECRET = 'a-production-forwarding-secret-of-32-chars';
const MFA_ENCRYPTION_KEY = 'a-production-mfa-key-of-at-least-32-chars';

describe('identity configuration rules', () => {
  it('lets development and tests run on the generated signing key and a generated OTP secret', () => {
    expect(configOf({}).JWT_PRIVATE_KEY).toBeUndefined();
    expect(configOf({ NODE_ENV: 'test' }).OTP_SECRET).toBeUndefined();
  });

  it('refuses production without JWT_PRIVATE_KEY, in one line naming it', () => {
    expect(() => configOf({ NODE_ENV: 'production', OTP_SECRET: otpSecret, FORWARDING_SECRET, MFA_ENCRYPTION_KEY })).toThrow(
      /^Invalid configuration: JWT_PRIVATE_KEY: must be set in production \(the generated signing key is for development and tests only\)$/,
    );
  });

  it('refuses production without an OTP_SECRET of its own', () => {
    expect(() => configOf({ NODE_ENV: 'production', JWT_PRIVATE_KEY: signingKey, FORWARDING_SECRET, MFA_ENCRYPTION_KEY })).toThrow(
      /^Invalid configuration: OTP_SECRET: must be set to a secret of your own in production$/,
    );
  });

  it('names both when both are missing, and starts with both', () => {
    expect(() => configOf({ NODE_ENV: 'production', FORWARDING_SECRET, MFA_ENCRYPTION_KEY })).toThrow(/^Invalid configuration: JWT_PRIVATE_KEY: .*; OTP_SECRET: /);
    const config = configOf({ NODE_ENV: 'production', JWT_PRIVATE_KEY: signingKey, OTP_SECRET: otpSecret, FORWARDING_SECRET, MFA_ENCRYPTION_KEY });
    expect(config).toMatchObject({ NODE_ENV: 'production', OTP_SECRET: otpSecret });
    expect(config.JWT_PRIVATE_KEY).toContain('PRIVATE KEY');
  });

  it("refuses production without the gateway's FORWARDING_SECRET (docs/decisions/0007)", () => {
    expect(() => configOf({ NODE_ENV: 'production', JWT_PRIVATE_KEY: signingKey, OTP_SECRET: otpSecret, MFA_ENCRYPTION_KEY })).toThrow(
      /^Invalid configuration: FORWARDING_SECRET: must be set to a secret of your own in production$/,
    );
    expect(() => configOf({ NODE_ENV: 'production', JWT_PRIVATE_KEY: signingKey, OTP_SECRET: otpSecret, FORWARDING_SECRET: 'short', MFA_ENCRYPTION_KEY })).toThrow(
      /FORWARDING_SECRET: must be at least 32 characters/,
    );
  });

  it('refuses production without an MFA_ENCRYPTION_KEY of its own (contract §12), and a short one anywhere', () => {
    expect(() => configOf({ NODE_ENV: 'production', JWT_PRIVATE_KEY: signingKey, OTP_SECRET: otpSecret, FORWARDING_SECRET })).toThrow(
      /^Invalid configuration: MFA_ENCRYPTION_KEY: must be set to a secret of your own in production$/,
    );
    expect(() => configOf({ MFA_ENCRYPTION_KEY: 'short' })).toThrow(/MFA_ENCRYPTION_KEY: must be at least 32 characters/);
    expect(configOf({}).MFA_ENCRYPTION_KEY).toBeUndefined();
  });

  it('takes JWT_PUBLIC_KEYS only beside JWT_PRIVATE_KEY', () => {
    const previous = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => configOf({ JWT_PUBLIC_KEYS: previous })).toThrow(/^Invalid configuration: JWT_PUBLIC_KEYS: goes with JWT_PRIVATE_KEY/);
    expect(configOf({ JWT_PRIVATE_KEY: signingKey, JWT_PUBLIC_KEYS: previous.replace(/\n/g, '\\n') }).JWT_PUBLIC_KEYS).toEqual([previous.trim()]);
  });

  it("hashes at OWASP's argon2id parameters unless told, and refuses production below OWASP's minimum, in one line naming the variable", () => {
    const production = { NODE_ENV: 'production', JWT_PRIVATE_KEY: signingKey, OTP_SECRET: otpSecret, FORWARDING_SECRET, MFA_ENCRYPTION_KEY };
    expect(configOf({})).toMatchObject({ PASSWORD_HASH_MEMORY_KIB: 19_456, PASSWORD_HASH_TIME_COST: 2 });
    expect(() => configOf({ ...production, PASSWORD_HASH_MEMORY_KIB: '19455' })).toThrow(
      /^Invalid configuration: PASSWORD_HASH_MEMORY_KIB: must be at least 19456 with PASSWORD_HASH_TIME_COST=2 in production \(OWASP's argon2id minimum\)$/,
    );
    expect(() => configOf({ ...production, PASSWORD_HASH_MEMORY_KIB: '19456', PASSWORD_HASH_TIME_COST: '1' })).toThrow(/must be at least 47104 with PASSWORD_HASH_TIME_COST=1/);
    expect(configOf({ ...production, PASSWORD_HASH_MEMORY_KIB: '7168', PASSWORD_HASH_TIME_COST: '9' })).toMatchObject({ PASSWORD_HASH_MEMORY_KIB: 7168 });
    expect(configOf({ NODE_ENV: 'test', PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_TIME_COST: '1' })).toMatchObject({ PASSWORD_HASH_MEMORY_KIB: 1024 });
    expect(() => configOf({ PASSWORD_HASH_MEMORY_KIB: '1023' })).toThrow(/^Invalid configuration: PASSWORD_HASH_MEMORY_KIB: /);
  });

  it('builds the strength estimator at start-up unless PASSWORD_STRENGTH_PRELOAD says false', () => {
    expect(configOf({})).toMatchObject({ PASSWORD_STRENGTH_PRELOAD: true });
    expect(configOf({ PASSWORD_STRENGTH_PRELOAD: 'false' })).toMatchObject({ PASSWORD_STRENGTH_PRELOAD: false });
    expect(() => configOf({ PASSWORD_STRENGTH_PRELOAD: 'later' })).toThrow(/^Invalid configuration: PASSWORD_STRENGTH_PRELOAD: /);
  });
});
