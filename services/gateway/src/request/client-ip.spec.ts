import Fastify, { type FastifyRequest } from 'fastify';
import { type ClientAddress, clientAddress, registerClientAddress } from './client-ip.js';

function request(remoteAddress: string, forwardedFor?: string): FastifyRequest {
  return { socket: { remoteAddress }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } } as unknown as FastifyRequest;
}

describe('client address (contract §4)', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress(request('::ffff:10.0.0.7', '203.0.113.1'), 0)).toEqual({ ip: '10.0.0.7', forwardedFor: '10.0.0.7' });
  });

  it('is the N-th X-Forwarded-For entry from the right behind N proxies; entries the client wrote are dropped', () => {
    expect(clientAddress(request('10.0.0.2', 'forged, 203.0.113.9'), 1)).toEqual({ ip: '203.0.113.9', forwardedFor: '203.0.113.9, 10.0.0.2' });
    expect(clientAddress(request('10.0.0.2', '1.1.1.1, forged,203.0.113.9 , 10.0.0.3'), 2)).toEqual({
      ip: '203.0.113.9',
      forwardedFor: '203.0.113.9, 10.0.0.3, 10.0.0.2',
    });
    expect(clientAddress(request('10.0.0.2', '::ffff:203.0.113.9'), 1).ip).toBe('203.0.113.9');
  });

  it('falls back to the socket peer with fewer entries than trusted proxies, or a non-address where the client should be', () => {
    expect(clientAddress(request('10.0.0.2', '203.0.113.9'), 2)).toEqual({ ip: '10.0.0.2', forwardedFor: '10.0.0.2' });
    expect(clientAddress(request('10.0.0.2'), 1)).toEqual({ ip: '10.0.0.2', forwardedFor: '10.0.0.2' });
    expect(clientAddress(request('10.0.0.2', '203.0.113.9, unknown'), 1)).toEqual({ ip: '10.0.0.2', forwardedFor: '10.0.0.2' });
  });

  it('is read once, as the request arrives: every hook after that sees the same answer', async () => {
    const app = Fastify();
    registerClientAddress(app, 1);
    const seen: ClientAddress[] = [];
    app.get('/', { preValidation: async (request) => void seen.push(request.client), preHandler: async (request) => void seen.push(request.client) }, async (request) => {
      seen.push(request.client);
      return {};
    });
    await app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-for': 'forged, 203.0.113.9' }, remoteAddress: '10.0.0.2' });
    await app.close();
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(1);
    expect(seen[0]).toEqual({ ip: '203.0.113.9', forwardedFor: '203.0.113.9, 10.0.0.2' });
  });
});
