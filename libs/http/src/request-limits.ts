/**
 * The longest request target (path and query string) read, in bytes: the gateway answers 414
 * URI_TOO_LONG above it, and no service refuses a shorter one on its own. Every route of the
 * contract fits in a few hundred bytes; 2 KiB is the length every browser and proxy is known to carry.
 */
export const MAX_URL_LENGTH = 2048;
