export interface KeysModuleOptions {
  /** JWT_PRIVATE_KEY (PKCS#8 PEM); undefined: use the key stored in the identity schema. */
  privateKeyPem?: string | undefined;
  /** JWT_ISSUER and JWT_AUDIENCE, written into every access token. */
  issuer: string;
  audience: string;
}

export const KEYS_OPTIONS = Symbol('KEYS_OPTIONS');
