// Turns a pino JSON line into `HH:MM:SS LEVEL message key=value ...` for the terminal.
const HIDDEN = new Set(['time', 'level', 'msg', 'service', 'pid', 'hostname']);

const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

export function formatLogLine(line: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof parsed !== 'object' || parsed === null) return line;
  const entry = parsed as Record<string, unknown>;
  const time = typeof entry['time'] === 'string' ? entry['time'].slice(11, 19) : '';
  const level = text(entry['level'] ?? '')
    .toUpperCase()
    .padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${text(value)}`)
    .join(' ');
  return `${time} ${level} ${text(entry['msg'] ?? '')}${fields ? `  ${fields}` : ''}`;
}
