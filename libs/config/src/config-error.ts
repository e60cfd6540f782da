/** A bad configuration value; its message is one line naming the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
