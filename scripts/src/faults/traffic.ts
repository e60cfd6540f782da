// What the fault scenarios share: an administrator's session, tagged guest submissions sent in
// turn with other routes, and the counts and checks of their outcome.
import { ADMIN, type Answer, guestFeedback, keepSending, login, type MailCount, type Tally } from '../proof/client.js';
import type { ProofSystem } from '../proof/system.js';
import type { Outcome } from './scenario.js';

/** The gateway's URL and an administrator's access token. */
export async function adminSession(system: ProofSystem): Promise<{ base: string; token: string }> {
  const base = system.gatewayUrl;
  const { accessToken } = await login(base, ADMIN);
  return { base, token: accessToken };
}

/** A route sending guest submissions tagged `<prefix>-<n>`, each accepted tag added to `accepted`. */
export function taggedGuestFeedback(base: string, prefix: string, accepted: string[]): () => Promise<Answer> {
  let sequence = 0;
  return async () => {
    const tag = `${prefix}-${sequence++}`;
    const answer = await guestFeedback(base, tag);
    if (answer.status === 200) accepted.push(tag);
    return answer;
  };
}

/** `clients` concurrent senders, each request the next route in turn. */
export function keepSendingInTurn(clients: number, routes: readonly (() => Promise<Answer>)[]): ReturnType<typeof keepSending> {
  let turn = 0;
  return keepSending(clients, () => routes[turn++ % routes.length]!());
}

/** The requests' tally (2xx under `okName`) and the mails' counts. */
export function trafficCounts(tally: Tally, mails: MailCount, okName = 'ok'): Outcome['counts'] {
  return {
    sent: tally.sent,
    [okName]: tally.ok,
    503: tally.unavailable,
    other5xx: tally.serverErrors,
    'mails.expected': mails.expected,
    'mails.delivered': mails.delivered,
    'mails.duplicated': mails.duplicated,
  };
}

export function onlyUnavailable(tally: Tally): Outcome['checks'][number] {
  return [`no 5xx other than 503 (${tally.toString()})`, tally.serverErrors === 0];
}

export function mailedOnce(mails: MailCount): Outcome['checks'][number] {
  return [`accepted guest submissions mailed once (${mails.missing} missing, ${mails.duplicated} duplicates)`, mails.missing === 0 && mails.duplicated === 0];
}
