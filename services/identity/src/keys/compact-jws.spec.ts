import { generateKeyPairSync } from 'node:crypto';
import { compactVerify, decodeProtectedHeader } from 'jose';
import { CompactJwsSigner } from './compact-jws.js';

describe.each([
  ['EdDSA', () => generateKeyPairSync('ed25519'), 64],
  ['ES256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' }), 64],
] as const)('CompactJwsSigner (%s)', (algorithm, generate, signatureBytes) => {
  const { privateKey, publicKey } = generate();
  const signer = new CompactJwsSigner(privateKey, algorithm, 'kid-1');

  it('produces a JWS that jose verifies, with the header and payload given', async () => {
    const token = signer.sign({ sub: 'user-1', exp: 1 });
    expect(decodeProtectedHeader(token)).toEqual({ alg: algorithm, kid: 'kid-1', typ: 'JWT' });
    const { payload } = await compactVerify(token, publicKey, { algorithms: [algorithm] });
    expect(JSON.parse(Buffer.from(payload).toString())).toEqual({ sub: 'user-1', exp: 1 });
    expect(Buffer.from(token.split('.')[2]!, 'base64url')).toHaveLength(signatureBytes);
  });

  it('signs the payload: a changed payload no longer verifies', async () => {
    const [header, , signature] = signer.sign({ role: 'customer' }).split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ role: 'admin' })).toString('base64url')}.${signature}`;
    await expect(compactVerify(forged, publicKey, { algorithms: [algorithm] })).rejects.toThrow();
  });
});
