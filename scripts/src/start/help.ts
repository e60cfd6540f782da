// `npm start -- --help`: the flags, then every variable of .env.example with its default and comment.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The variables documented in .env.example: a `# comment` line, then `#NAME=default` (commented
 * out: a copy of the file as .env changes nothing until a line is uncommented).
 */
export interface DocumentedVariable {
  name: string;
  /** The default written after `=`; empty when the variable is unset by default. */
  value: string;
  comment: string;
}

export function documentedVariables(root: string): DocumentedVariable[] {
  const variables: DocumentedVariable[] = [];
  let comment: string[] = [];
  for (const line of readFileSync(join(root, '.env.example'), 'utf8').split('\n')) {
    const variable = /^#?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (variable) {
      variables.push({ name: variable[1] ?? '', value: variable[2] ?? '', comment: comment.join(' ') });
      comment = [];
    } else if (line.startsWith('# ')) {
      comment.push(line.slice(2).trim());
    } else {
      comment = [];
    }
  }
  return variables;
}

export function printHelp(root: string): void {
  const lines = [
    'Usage: npm start [-- <flags>]',
    '',
    'Checks that the ports are free and that PostgreSQL, Redis and RabbitMQ answer, builds what',
    'changed, starts the gateway and the five services, and prints the gateway URL once ready.',
    'Ctrl-C stops everything. Missing PostgreSQL, Redis or RabbitMQ: `npm run infra` (Docker).',
    '',
    'Flags:',
    '  --no-build   start the existing build (dist/) without building',
    '  --source-maps  stack traces in TypeScript lines (node --enable-source-maps; 10-20 MB more per process)',
    '  --help, -h   this text',
    '',
    'Variables (environment, or a .env file at the repository root; the environment wins):',
  ];
  for (const { name, value, comment } of documentedVariables(root)) {
    lines.push(`  ${name}=${value}`);
    if (comment) lines.push(`      ${comment}`);
  }
  console.log(lines.join('\n'));
}
