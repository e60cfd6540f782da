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
  const { kty, crv, x, y } = createPublicKey(createPrivateKey(pem)).export({ format: 'jwk' });
  const publicMembers: JWK = { kty, crv, x, ...(y !== undefined && { y }) };
  const kid = await calculateJwkThumbprint(publicMembers, 'sha256');
  return { kid, algorithm, privateKeyPem: pem, publicJwk: { ...publicMembers, kid, alg: algorithm, use: 'sig' } };
}

export function generateEd25519Pem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}
