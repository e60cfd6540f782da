import { generateKeyPairSync } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, importSPKI } from 'jose';
import { parseConfig } from '@school/config';
import { keysEnv } from './keys.config.js';
import { describePrivateKey, generateEd25519Pem, signingAlgorithmOf } from './signing-key.js';

const pkcs8 = (key: ReturnType<typeof generateKeyPairSync>['privateKey']) => key.export({ format: 'pem', type: 'pkcs8' }).toString();

describe('signing key material', () => {
  it('reads an Ed25519 PKCS#8 key as EdDSA with its RFC 7638 thumbprint as kid', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const material = await describePrivateKey(pkcs8(privateKey));
    const spki = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const expectedKid = await calculateJwkThumbprint(await exportJWK(await importSPKI(spki, 'EdDSA', { extractable: true })));

    expect(material.algorithm).toBe('EdDSA');
    expect(material.kid).toBe(expectedKid);
    expect(material.publicJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: expectedKid, alg: 'EdDSA', use: 'sig' });
  });

  it('reads a P-256 PKCS#8 key as ES256', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const material = await describePrivateKey(pkcs8(privateKey));
    expect(material.algorithm).toBe('ES256');
    expect(Object.keys(material.publicJwk).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
  });

  it.each([
    ['an RSA key', () => pkcs8(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey)],
    ['a P-384 key', () => pkcs8(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey)],
    ['a SEC1 (non-PKCS#8) P-256 key', () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'sec1' }).toString()],
    ['a public key', () => generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString()],
    ['junk', () => '-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----'],
  ])('refuses %s', async (_case, pem) => {
    expect(signingAlgorithmOf(pem())).toBeUndefined();
    await expect(describePrivateKey(pem())).rejects.toThrow(/Ed25519 or P-256/);
  });

  it('generates distinct Ed25519 keys', async () => {
    const [a, b] = await Promise.all([describePrivateKey(generateEd25519Pem()), describePrivateKey(generateEd25519Pem())]);
    expect(a.algorithm).toBe('EdDSA');
    expect(a.kid).not.toBe(b.kid);
  });
});

describe('keysEnv', () => {
  it('leaves JWT_PRIVATE_KEY optional', () => {
    expect(parseConfig(keysEnv, {}).JWT_PRIVATE_KEY).toBeUndefined();
  });

  it('accepts a PEM with escaped newlines', () => {
    const pem = generateEd25519Pem();
    expect(parseConfig(keysEnv, { JWT_PRIVATE_KEY: pem.replace(/\n/g, '\\n') }).JWT_PRIVATE_KEY).toBe(pem.trim());
  });

  it('refuses an unusable key in one line naming the variable', () => {
    const rsa = pkcs8(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    expect(() => parseConfig(keysEnv, { JWT_PRIVATE_KEY: rsa })).toThrow(/^Invalid configuration: JWT_PRIVATE_KEY: must be an Ed25519 or P-256 private key in PKCS#8 PEM$/);
  });
});
