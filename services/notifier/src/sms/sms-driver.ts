export interface SmsMessage {
  /** E.164 phone number. */
  to: string;
  text: string;
  /** The one-time code inside `text`, for drivers that must keep it out of logs. */
  secret?: string;
}

/** The SMS channel (phone OTPs). Replace the log driver with a provider's by implementing this. */
export interface SmsDriver {
  send(message: SmsMessage): Promise<void>;
}

export const SMS_DRIVER = Symbol('SMS_DRIVER');
