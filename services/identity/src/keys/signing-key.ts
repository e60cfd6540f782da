import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { AccessTokenAlgorithm } from '@school/auth';

/** A private key as configured or stored, and what the JWKS says about it. */
export interface SigningKeyMaterial {
  /** RFC 7638 thumbprint (SHA-256) of the public key. */
  kid: string;
  algorithm: AccessTokenAlgorithm;
  privateKeyPem: string;
  /** Public members only, with kid, alg and use. */
  publicJwk: JWK;
}

const PKCS8_HEADER = '-----BEGIN PRIVATE KEY-----';

/** EdDSA for Ed25519, ES256 for P-256; undefined for anything else (other curves, RSA, non-PKCS#8, junk). */
export function signingAlgorithmOf(pem: string): AccessTokenAlgorithm | undefined {
  if (!pem.trimStart().startsWith(PKCS8_HEADER)) return undefined;
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    return undefined;
  }
  return algorithmOf(key);
}

function algorithmOf(key: KeyObject): AccessTokenAlgorithm | undefined {
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  return undefined;
}

export async function describePrivateKey(pem: string): Promise<SigningKeyMaterial> {
  const algorithm = signingAlgorithmOf(pem);
  if (!algorithm) throw new Error('The signing key must be an Ed25519 or P-256 private key in PKCS#8 PEM');
  const publicJwk = await jwkOf(createPublicKey(createPrivateKey(pem)), algorithm);
  return { kid: publicJwk.kid!, algorithm, privateKeyPem: pem, publicJwk };
}

const SPKI_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g;

/** The PEM blocks of a value holding one or more public keys (JWT_PUBLIC_KEYS). */
export function publicKeyPems(value: string): string[] {
  return [...value.matchAll(SPKI_BLOCK)].map((match) => match[0]);
}

/** EdDSA or ES256 for an Ed25519 or P-256 public key in SPKI PEM; undefined for anything else. */
export function verifyingAlgorithmOf(pem: string): AccessTokenAlgorithm | undefined {
  try {
    return algorithmOf(createPublicKey({ key: pem, format: 'pem' }));
  } catch {
    return undefined;
  }
}

/** The JWK a public key (SPKI PEM) is published as, with its thumbprint as kid. */
export async function describePublicKey(pem: string): Promise<JWK> {
  const algorithm = verifyingAlgorithmOf(pem);
  if (!algorithm) throw new Error('A published key must be an Ed25519 or P-256 public key in SPKI PEM');
  return jwkOf(createPublicKey(pem), algorithm);
}

async function jwkOf(key: KeyObject, algorithm: AccessTokenAlgorithm): Promise<JWK> {
  const { kty, crv, x, y } = key.export({ format: 'jwk' });
  const publicMembers: JWK = { kty, crv, x, ...(y !== undefined && { y }) };
  const kid = await calculateJwkThumbprint(publicMembers, 'sha256');
  return { ...publicMembers, kid, alg: algorithm, use: 'sig' };
}

/** The public half of a private key, SPKI PEM: what JWT_PUBLIC_KEYS holds. */
export function publicPemOf(privateKeyPem: string): string {
  return createPublicKey(createPrivateKey(privateKeyPem)).export({ format: 'pem', type: 'spki' }).toString();
}

export function generateEd25519Pem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}
