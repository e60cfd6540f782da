/** Success messages of the credential routes; forgot and resend say the same whether or not an account exists. */
export const CREDENTIAL_MESSAGES = {
  forgot: 'If an account matches, password reset instructions have been sent',
  reset: 'Your password has been reset',
  emailVerificationResent: 'If an account needs verification, a verification email has been sent',
  emailVerified: 'Email verified',
  phoneCodeSent: 'Verification code sent',
  phoneVerified: 'Phone verified',
} as const;
