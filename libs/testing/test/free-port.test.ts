import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { closedPort, freePort } from '../src/index.js';

const ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

describe('freePort', () => {
  it("hands out ports below the kernel's ephemeral range, where no outgoing connection takes them", async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) expect(port).toBeLessThan(ephemeralLow);
  });

  it('never hands out the same port twice while it is reserved, even before it is bound', async () => {
    const ports = await Promise.all(Array.from({ length: 300 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('hands out a port that can be bound on 127.0.0.1', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('closedPort', () => {
  it("hands out a port below the kernel's ephemeral range, which no other process's listen(0) is given, and refuses connections", async () => {
    const port = await closedPort();
    expect(port).toBeLessThan(ephemeralLow);
    const refused = await fetch(`http://127.0.0.1:${port}/`).then(
      () => undefined,
      (error: Error & { cause?: { code?: string } }) => error.cause?.code,
    );
    expect(refused).toBe('ECONNREFUSED');
  });

  it('is never handed out by freePort while it is reserved', async () => {
    const closed = await closedPort();
    const free = await Promise.all(Array.from({ length: 300 }, () => freePort()));
    expect(free).not.toContain(closed);
  });
});
