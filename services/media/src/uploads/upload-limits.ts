const MIB = 1024 * 1024;

/** Contract §8: customers' uploads are 5 MiB at most, fixed. */
export const MOBILE_UPLOAD_MAX_FILE_BYTES = 5 * MIB;

export interface UploadLimits {
  /** UPLOAD_MAX_FILE_SIZE_MB in bytes. */
  adminMaxFileBytes: number;
  mobileMaxFileBytes: number;
  /** CUSTOMER_STORAGE_QUOTA_MB in bytes: all a customer may keep stored (contract §9). */
  customerQuotaBytes: number;
}

export function uploadLimitsOf(config: { UPLOAD_MAX_FILE_SIZE_MB: number; CUSTOMER_STORAGE_QUOTA_MB: number }): UploadLimits {
  return {
    adminMaxFileBytes: config.UPLOAD_MAX_FILE_SIZE_MB * MIB,
    mobileMaxFileBytes: MOBILE_UPLOAD_MAX_FILE_BYTES,
    customerQuotaBytes: config.CUSTOMER_STORAGE_QUOTA_MB * MIB,
  };
}

export const UPLOAD_LIMITS = Symbol('UPLOAD_LIMITS');
