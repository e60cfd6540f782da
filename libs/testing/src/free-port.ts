import { mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long a port handed out stays reserved for its process to bind it, across this machine's test processes. */
const RESERVATION_MS = 5 * 60_000;
const PORTS_BELOW_EPHEMERAL = 12_000;
const ATTEMPTS = 200;

/**
 * A port free on 127.0.0.1 right now, for a process a test is about to start.
 *
 * Not from listen(0): that port comes from the kernel's ephemeral range, where any outgoing
 * connection of any process (to Postgres, say) may take it before the child binds it (seen on a
 * loaded machine as a service failing with EADDRINUSE). So it is drawn from the range just below
 * the ephemeral one, which only explicit binds use, and reserved by a file in the temp folder so
 * that two test processes starting systems at once do not hand out the same port.
 */
export async function freePort(): Promise<number> {
  const [low, high] = belowEphemeralRange();
  if (high - low < 1_000) return kernelChosenPort();
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (reserve(port) && (await bindable(port))) return port;
  }
  throw new Error(`freePort: no free port found in ${ATTEMPTS} tries between ${low} and ${high}`);
}

function belowEphemeralRange(): [number, number] {
  let ephemeralLow = 32_768;
  try {
    ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || ephemeralLow;
  } catch {
    // Not Linux: the common default stands.
  }
  const high = ephemeralLow;
  return [Math.max(10_000, high - PORTS_BELOW_EPHEMERAL), high];
}

/**
 * A port nothing listens on, so a connection to it is refused. Drawn and reserved as freePort's:
 * a port from listen(0) is soon handed to another test process's listen(0) (seen as a fake
 * upstream answering a test that expected every replica dead).
 */
export function closedPort(): Promise<number> {
  return freePort();
}

function kernelChosenPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const reservations = join(tmpdir(), 'school-test-ports');

function reserve(port: number): boolean {
  mkdirSync(reservations, { recursive: true });
  const file = join(reservations, String(port));
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    if (Date.now() - statSync(file).mtimeMs < RESERVATION_MS) return false;
    unlinkSync(file);
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
