// Turns a pino JSON line into `HH:MM:SS LEVEL message key=value ...` for the terminal.
const HIDDEN = new Set(['time', 'level', 'msg', 'service', 'pid', 'hostname']);

export function formatLogLine(line) {
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null) return line;
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 19) : '';
  const level = String(entry.level ?? '')
    .toUpperCase()
    .padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'object' ? JSON.stringify(value) : value}`)
    .join(' ');
  return `${time} ${level} ${entry.msg ?? ''}${fields ? `  ${fields}` : ''}`;
}
