/** Data of a `notification.send_sms` job. */
export interface SmsJob {
  template: 'password_reset_code' | 'phone_verification_code';
  to: string;
  otp: string;
  expiresAt: string;
}

export function smsText(job: SmsJob): string {
  const minutes = Math.max(1, Math.round((new Date(job.expiresAt).getTime() - Date.now()) / 60_000));
  const validity = `It expires in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  return job.template === 'password_reset_code'
    ? `Your School Commerce password reset code is ${job.otp}. ${validity} If you did not ask for it, ignore this message.`
    : `Your School Commerce phone verification code is ${job.otp}. ${validity}`;
}
