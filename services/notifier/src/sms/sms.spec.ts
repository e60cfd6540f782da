import { Logger } from '@nestjs/common';
import { jest } from '@jest/globals';
import { LogSmsDriver } from './log-sms.driver.js';
import { smsText } from './sms-job.js';

describe('SMS', () => {
  const expiresAt = new Date(Date.now() + 15 * 60_000).toISOString();

  it('words each code message with its validity', () => {
    expect(smsText({ template: 'password_reset_code', to: '+9779812345678', otp: '123456', expiresAt })).toBe(
      'Your School Commerce password reset code is 123456. It expires in 15 minutes. If you did not ask for it, ignore this message.',
    );
    expect(smsText({ template: 'phone_verification_code', to: '+9779812345678', otp: '654321', expiresAt })).toContain('654321');
  });

  it('log driver: masks the code unless codes may be shown', async () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    try {
      await new LogSmsDriver(false).send({ to: '+9779812345678', text: 'Your code is 123456.', secret: '123456' });
      await new LogSmsDriver(true).send({ to: '+9779812345678', text: 'Your code is 123456.', secret: '123456' });
      expect(log.mock.calls.map(([entry]) => (entry as { text: string }).text)).toEqual(['Your code is ******.', 'Your code is 123456.']);
    } finally {
      log.mockRestore();
    }
  });
});
