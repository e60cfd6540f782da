import { parseConfig } from '@school/config';
import { mediaConfigRules, mediaEnv } from './config.js';

const configOf = (env: Record<string, string>) => parseConfig(mediaEnv, env, mediaConfigRules);

describe('media configuration', () => {
  it('defaults to the local driver under ./data/storage and 50 MiB admin uploads', () => {
    expect(configOf({ NODE_ENV: 'test' })).toMatchObject({ STORAGE_DRIVER: 'local', STORAGE_DIR: './data/storage', UPLOAD_MAX_FILE_SIZE_MB: 50 });
  });

  it('defaults to 2 image conversions at once decoding 60 megapixels together, a 10 s wait for one, and a 1024 MiB customer quota (contract §9)', () => {
    expect(configOf({})).toMatchObject({ IMAGE_CONVERSIONS: 2, IMAGE_CONVERSION_WAIT_MS: 10_000, IMAGE_CONVERSION_MEGAPIXELS: 60, CUSTOMER_STORAGE_QUOTA_MB: 1024 });
    expect(() => configOf({ IMAGE_CONVERSION_MEGAPIXELS: '0' })).toThrow(/IMAGE_CONVERSION_MEGAPIXELS/);
    expect(() => configOf({ IMAGE_CONVERSIONS: '0' })).toThrow(/IMAGE_CONVERSIONS/);
    expect(() => configOf({ CUSTOMER_STORAGE_QUOTA_MB: 'lots' })).toThrow(/CUSTOMER_STORAGE_QUOTA_MB/);
  });

  it('leaves SIGNED_URL_SECRET unset outside production (media generates one per installation): no secret in the source', () => {
    expect(configOf({ NODE_ENV: 'development' }).SIGNED_URL_SECRET).toBeUndefined();
  });

  it('refuses production without a SIGNED_URL_SECRET of its own', () => {
    const forwarding = { FORWARDING_SECRET: 'the-gateway-forwarding-secret-of-32-chars' };
    expect(() => configOf({ NODE_ENV: 'production', ...forwarding })).toThrow(/^Invalid configuration: SIGNED_URL_SECRET: must be set to a secret of your own in production$/);
    expect(configOf({ NODE_ENV: 'production', ...forwarding, SIGNED_URL_SECRET: 'a-production-secret-of-at-least-32-chars' }).SIGNED_URL_SECRET).toBe(
      'a-production-secret-of-at-least-32-chars',
    );
  });

  it("refuses production without the gateway's FORWARDING_SECRET (its audit entries name the client address, contract §13)", () => {
    expect(() => configOf({ NODE_ENV: 'production', SIGNED_URL_SECRET: 'a-production-secret-of-at-least-32-chars' })).toThrow(
      /^Invalid configuration: FORWARDING_SECRET: must be set to a secret of your own in production$/,
    );
  });

  it('refuses a short secret and an unknown driver', () => {
    expect(() => configOf({ SIGNED_URL_SECRET: 'short' })).toThrow(/SIGNED_URL_SECRET/);
    expect(() => configOf({ STORAGE_DRIVER: 'ftp' })).toThrow(/STORAGE_DRIVER/);
  });

  it('requires the endpoint, bucket and credentials with the s3 driver', () => {
    expect(() => configOf({ STORAGE_DRIVER: 's3' })).toThrow(/^Invalid configuration: S3_ENDPOINT: must be set when STORAGE_DRIVER is s3$/);
    expect(() => configOf({ STORAGE_DRIVER: 's3', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'media', S3_ACCESS_KEY: 'k' })).toThrow(/S3_SECRET_KEY/);
    expect(() => configOf({ S3_ENDPOINT: 'ftp://host' })).toThrow(/S3_ENDPOINT/);
    const s3 = { STORAGE_DRIVER: 's3', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'media', S3_ACCESS_KEY: 'k', S3_SECRET_KEY: 's' };
    expect(configOf(s3)).toMatchObject({ ...s3, S3_REGION: 'us-east-1' });
  });
});
