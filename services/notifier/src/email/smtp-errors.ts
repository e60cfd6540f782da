/**
 * Lesson 7: an SMTP 5xx reply is final (the server will never accept this message as it is);
 * 4xx replies, timeouts and connection failures are transient and worth retrying.
 */
export function smtpReplyCode(error: unknown): number | undefined {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' ? code : undefined;
}

export function isPermanentSmtpFailure(error: unknown): boolean {
  const code = smtpReplyCode(error);
  return code !== undefined && code >= 500 && code < 600;
}
