/** The notifier's BullMQ queues, one per notification channel. */
export const JOB_QUEUES = {
  sendEmail: 'notification.send_email',
  sendSms: 'notification.send_sms',
} as const;
