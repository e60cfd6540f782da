import type { EmailTemplates, RenderedEmail } from '../email-job.js';
import { compose, formatTime, type Block } from './layout.js';

const CATEGORY_LABELS: Record<EmailTemplates['feedback_submitted']['category'], string> = {
  bug_report: 'Bug report',
  feature_request: 'Feature request',
  general_feedback: 'General feedback',
};

/** The internal email to SUPPORT_EMAIL about one accepted submission (spec §6). */
export function feedbackSubmittedEmail(data: EmailTemplates['feedback_submitted']): RenderedEmail {
  const category = CATEGORY_LABELS[data.category];
  const sender: Array<[string, string]> =
    data.from.type === 'guest'
      ? [['From', `${data.from.name} (guest)`], ['Email', data.from.email], ...(data.from.phone ? [['Phone', data.from.phone] as [string, string]] : [])]
      : [['From', `Customer account ${data.from.userId}`]];
  const blocks: Block[] = [
    { kind: 'text', text: 'New feedback was submitted.' },
    {
      kind: 'fields',
      fields: [['Category', category], ['Subject', data.subject ?? '(none)'], ...sender, ['Received', formatTime(data.createdAt)], ['Reference', data.id]],
    },
    { kind: 'quote', text: data.message },
  ];
  return compose(`[Feedback] ${category}: ${data.subject ?? data.message.slice(0, 60)}`, blocks);
}
