import { describe, expect, it } from '@jest/globals';
import { GATEWAY_PORT, PROCESS_NAMES, SERVICES } from '@school/config';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { THROTTLE_POLICIES, THROTTLE_POLICY_NAMES, type ThrottlePolicyName } from '@school/contracts';

const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

/** The rows of the README's table whose header row starts with `| first |`, each as its trimmed cells. */
function table(first: string): string[][] {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${first} |`));
  if (start < 0) throw new Error(`README.md has no table headed "${first}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

describe('the README says what the code does', () => {
  it('lists every process npm start runs (PROCESS_NAMES) with its port and schema, and nothing else', () => {
    const rows = table('process').map(([process, port, owns]) => ({ process, port: port?.split(' ')[0], owns }));
    const expected = PROCESS_NAMES.map((name) =>
      name === 'gateway'
        ? { process: '`services/gateway`', port: String(GATEWAY_PORT), owns: '-' }
        : { process: `\`services/${name}\``, port: String(SERVICES[name].port), owns: `schema \`${SERVICES[name].schema}\`` },
    );
    expect([...rows].sort((a, b) => a.process!.localeCompare(b.process!))).toEqual([...expected].sort((a, b) => a.process.localeCompare(b.process)));
  });

  // Where each throttle policy is told: the row's first cell, and which of its `;`-separated limits.
  const toldIn = (row: string, ...names: ThrottlePolicyName[]) => names.map((name, part) => [name, { row, part }] as const);
  const POLICY_ROWS = Object.fromEntries([
    ...toldIn('login (both surfaces together)', 'login', 'loginPerIp'),
    ...toldIn('forgot password; email-verify resend; reset', 'forgotPassword', 'emailVerifyResend', 'resetPassword'),
    ...toldIn('set password', 'setPassword'),
    ...toldIn('guest feedback', 'guestFeedback', 'guestFeedbackPerIp'),
    ...toldIn('signed-in feedback', 'feedback'),
    ...toldIn('administrator uploads', 'adminUpload'),
    ...toldIn('customer uploads', 'mobileUpload'),
    ...toldIn('signed URLs (customer)', 'mobileSignedUrl'),
  ]) as Partial<Record<ThrottlePolicyName, { row: string; part: number }>>;
  const WINDOW_WORDS: Record<number, string[]> = { 60_000: ['a minute', 'per 60 s'], 900_000: ['per 15 minutes'], 3_600_000: ['an hour'] };

  it.each(THROTTLE_POLICY_NAMES)('states the throttle policy %s with its limit, window and key in the security-limits table', (name) => {
    const policy = THROTTLE_POLICIES[name];
    expect(POLICY_ROWS[name]).toBeDefined();
    const { row, part } = POLICY_ROWS[name]!;
    const cells = table('what').find(([what]) => what === row);
    expect(cells).toBeDefined();
    const [, limits = '', per = ''] = cells!;
    const words = WINDOW_WORDS[policy.windowMs];
    expect(words).toBeDefined();
    const limit = limits.split(';')[part]?.trim() ?? '';
    expect(words!.some((window) => limit.startsWith(`${policy.limit} ${window}`))).toBe(true);
    expect(per.split(';')[part]?.trim()).toBe(policy.key.join(' + '));
  });

  it('names a row for every throttle policy and no other', () => {
    expect(Object.keys(POLICY_ROWS).sort()).toEqual([...THROTTLE_POLICY_NAMES].sort());
  });
});
