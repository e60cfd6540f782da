import { parseArgs } from 'node:util';
import type { DeadLetter } from '../dead-letters/dead-letter.js';
import { DeadLetterQueues, type DeadLetterQueuesOptions } from '../dead-letters/dead-letter-queues.js';

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

/** 0 done; 1 the broker or a replay failed, or nothing matched `--id`; 2 the command line is wrong. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export const DLQ_USAGE = `usage: npm run dlq -- <list | replay [--id ID] | purge --yes> [--queue NAME] [--json]
  list     show the parked messages (id, routing key, type, reason, time, retries, last error); leaves them parked
  replay   republish them (or only message --id ID) to the events exchange with their routing key, then remove them
  purge    delete every parked message (needs --yes)
  --queue  a consumer (e.g. notifier) or its dead-letter queue's name, when several exist
  --json   one JSON document on stdout instead of text`;

const ACTIONS = ['list', 'replay', 'purge'] as const;
type Action = (typeof ACTIONS)[number];

interface Input {
  action: Action;
  queue?: string | undefined;
  id?: string | undefined;
  yes: boolean;
  json: boolean;
}

/** `npm run dlq -- ...`: returns the exit status; AMQP_URL and AMQP_NAME_PREFIX come in `target`. */
export async function dlq(argv: string[], target: DeadLetterQueuesOptions, output: CliOutput): Promise<number> {
  let input: Input;
  try {
    input = parseInput(argv);
  } catch (error) {
    output.err(`dlq: ${messageOf(error)}`);
    output.err(DLQ_USAGE);
    return EXIT.usage;
  }
  let queues: DeadLetterQueues;
  try {
    queues = await DeadLetterQueues.connect(target);
  } catch (error) {
    output.err(`dlq: cannot reach the broker: ${messageOf(error)}`);
    return EXIT.failed;
  }
  try {
    const existing = await queues.existing();
    if (existing.length === 0 && input.queue === undefined) {
      const none = `no dead-letter queue exists yet (none of ${target.consumers.join(', ')} has declared one under prefix "${target.prefix}")`;
      if (input.action !== 'list') {
        output.err(`dlq: ${none}`);
        return EXIT.failed;
      }
      output.out(input.json ? JSON.stringify({ queues: [] }) : `${none}: nothing is parked`);
      return EXIT.ok;
    }
    const selected = pick(existing, input, target);
    if (typeof selected === 'string') {
      output.err(`dlq: ${selected}`);
      return EXIT.usage;
    }
    return await run(queues, selected, input, output);
  } catch (error) {
    output.err(`dlq: ${messageOf(error)}`);
    return EXIT.failed;
  } finally {
    await queues.close();
  }
}

async function run(queues: DeadLetterQueues, selected: string[], input: Input, output: CliOutput): Promise<number> {
  switch (input.action) {
    case 'list': {
      const listed = await Promise.all(selected.map(async (queue) => ({ queue, messages: await queues.list(queue) })));
      if (input.json) output.out(JSON.stringify({ queues: listed }));
      else for (const { queue, messages } of listed) printList(queue, messages, output);
      return EXIT.ok;
    }
    case 'replay': {
      const queue = selected[0]!;
      const { replayed } = await queues.replay(queue, input.id);
      if (input.json) output.out(JSON.stringify({ queue, replayed }));
      else output.out(`${queue}: replayed ${plural(replayed.length, 'message')}${replayed.map((m) => `\n  ${m.messageId ?? '(no id)'} -> ${m.routingKey}`).join('')}`);
      if (input.id !== undefined && replayed.length === 0) {
        output.err(`dlq: no message with id ${input.id} in ${queue}`);
        return EXIT.failed;
      }
      return EXIT.ok;
    }
    case 'purge': {
      const queue = selected[0]!;
      if (!input.yes) {
        output.err(`dlq: ${queue} holds ${plural((await queues.count(queue)) ?? 0, 'message')}; purge deletes them for good: add --yes`);
        return EXIT.usage;
      }
      const purged = await queues.purge(queue);
      output.out(input.json ? JSON.stringify({ queue, purged }) : `${queue}: purged ${plural(purged, 'message')}`);
      return EXIT.ok;
    }
  }
}

/** The queues the action applies to, or why none can be chosen. Replay and purge act on one queue. */
function pick(existing: string[], input: Input, target: DeadLetterQueuesOptions): string[] | string {
  if (input.queue !== undefined) {
    const wanted = input.queue;
    const match = existing.find((queue) => queue === wanted || queue === `${target.prefix}${wanted}` || queue === `${target.prefix}${wanted}.events.dlq`);
    return match ? [match] : `no dead-letter queue "${wanted}"${existing.length ? `; there are: ${existing.join(', ')}` : ''}`;
  }
  if (input.action !== 'list' && existing.length > 1) return `several dead-letter queues exist (${existing.join(', ')}): pick one with --queue`;
  return existing;
}

function printList(queue: string, messages: DeadLetter[], output: CliOutput): void {
  output.out(`${queue}: ${plural(messages.length, 'message')}`);
  messages.forEach((m, index) => {
    output.out(`${index + 1}. id ${m.messageId ?? '(none)'}  routing key ${m.routingKey}  type ${m.type ?? '(none)'}  ${m.bytes} bytes`);
    const from = m.from ? ` from ${m.from}` : '';
    output.out(`   dead-lettered ${m.deadLetteredAt ?? '(time unknown)'}${from}: ${m.reason ?? 'reason unknown'}, ${plural(m.retryCount, 'retry', 'retries')}`);
    if (m.lastError) output.out(`   last error: ${m.lastError}`);
  });
}

function parseInput(argv: string[]): Input {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { queue: { type: 'string' }, id: { type: 'string' }, yes: { type: 'boolean' }, json: { type: 'boolean' } },
    strict: true,
    allowPositionals: true,
  });
  const [action, ...extra] = positionals;
  if (!ACTIONS.includes(action as Action)) throw new Error(action ? `unknown action "${action}"` : 'an action is required');
  if (extra.length > 0) throw new Error(`unexpected argument "${extra[0]}"`);
  if (values.id !== undefined && action !== 'replay') throw new Error('--id goes with replay');
  if (values.yes && action !== 'purge') throw new Error('--yes goes with purge');
  return { action: action as Action, queue: values.queue, id: values.id, yes: values.yes ?? false, json: values.json ?? false };
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}
