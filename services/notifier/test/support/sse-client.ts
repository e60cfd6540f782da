import { request, type IncomingMessage } from 'node:http';

export interface SseEvent {
  event: string;
  id: string | undefined;
  data: string;
}

/**
 * A Server-Sent Events client on node:http (one connection per stream, closed by close(), as a
 * browser's EventSource does), recording events and comments as they arrive.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  private body = '';
  private ended!: Promise<void>;

  private constructor(private readonly response: IncomingMessage) {}

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  header(name: string): string | undefined {
    const value = this.response.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** The parsed body of a refused request (an error envelope). */
  json(): unknown {
    return JSON.parse(this.body);
  }

  static async open(url: string, token?: string): Promise<SseClient> {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(url, { headers: { accept: 'text/event-stream', ...(token && { authorization: `Bearer ${token}` }) } }, resolve);
      req.on('error', reject);
      req.end();
    });
    const client = new SseClient(response);
    client.ended = new Promise((resolve) => {
      response.on('close', () => resolve());
      response.on('error', () => resolve());
    });
    if (client.status === 200) client.listen();
    else {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (client.body += chunk));
      await client.ended;
    }
    return client;
  }

  close(): void {
    this.response.destroy();
  }

  /** Resolves when the server ended the stream (or close() was called). */
  async closed(): Promise<void> {
    await this.ended;
  }

  private listen(): void {
    this.response.setEncoding('utf8');
    let buffer = '';
    this.response.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        this.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    });
  }

  private parse(frame: string): void {
    const fields: Record<string, string> = {};
    for (const line of frame.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
      else {
        const colon = line.indexOf(':');
        if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
      }
    }
    if (fields['data'] !== undefined) this.events.push({ event: fields['event'] ?? 'message', id: fields['id'], data: fields['data'] });
  }
}
