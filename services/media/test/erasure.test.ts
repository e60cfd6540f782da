import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SessionRevocations } from '@school/auth';
import { EVENT_TYPES } from '@school/contracts';
import { INBOX_TABLE } from '@school/messaging';
import { TestBroker } from '@school/messaging/testing';
import { uuidv7 } from '@school/prisma';
import { waitFor } from '@school/testing';
import { form, image, PDF } from './support/files.js';
import { type Caller, type MediaUnderTest, startMedia } from './support/media-app.js';
import { startS3, type TestS3 } from './support/s3-server.js';
import { localObjects, type StoredObjects, s3Objects } from './support/stored-objects.js';

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';

interface Envelope {
  data: Record<string, unknown> | null;
  errorCode: string | null;
}

/** Contract §11 in media: identity.user_erased through media's own queue and inbox, on both drivers. */
describe.each(['local', 's3'] as const)('media follows an erasure (%s storage)', (driver) => {
  let s3: TestS3 | undefined;
  let media: MediaUnderTest;
  let store: StoredObjects;
  let broker: TestBroker;

  beforeAll(async () => {
    s3 = driver === 's3' ? await startS3() : undefined;
    media = await startMedia({ SIGNED_URL_SECRET: SECRET, ...s3?.env });
    store = s3 ? s3Objects(s3) : localObjects(media.storageDir);
    broker = await TestBroker.connect(media.brokerPrefix);
  });

  afterAll(async () => {
    await broker?.close();
    await media?.close();
    await s3?.close();
  });

  async function uploaded(caller: Caller, uploadType: string, body: FormData): Promise<string> {
    const response = await media.fetch(`/api/mobile/uploads?uploadType=${uploadType}`, { method: 'POST', body, token: caller.token });
    const answer = (await response.json()) as Envelope;
    expect(response.status).toBe(200);
    return String(answer.data?.['relativePath']);
  }

  async function erased(userId: string): Promise<void> {
    const messageId = uuidv7();
    await broker.publish(EVENT_TYPES.userErased, JSON.stringify({ version: 1, userId, erasedAt: new Date().toISOString(), emailDigest: 'b'.repeat(64) }), { messageId });
    await waitFor(async () => (await media.prisma.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM "${media.schema}".${INBOX_TABLE} WHERE message_id = $1`, messageId)).length > 0, {
      what: `erasure ${messageId} processed`,
    });
  }

  it('refuses an upload whose session an erasure revoked while its body was arriving, and keeps nothing of it', async () => {
    const person = await media.caller('mobile');
    const sessionId = (JSON.parse(Buffer.from(person.token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
    const before = await store.keys();
    const spools = new Set(await readdir(tmpdir()));
    const multipart = new Response(form('file', PDF, 'late.pdf', 'application/pdf'));
    const type = multipart.headers.get('content-type')!;
    const bytes = new Uint8Array(await multipart.arrayBuffer());
    // The part's headers and the first bytes of the file, so that the handler gets the file and opens its spool.
    const cut = Buffer.from(bytes).indexOf('%PDF') + 8;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(bytes.subarray(0, cut));
        await released;
        controller.enqueue(bytes.subarray(cut));
        controller.close();
      },
    });
    const answer = media.fetch('/api/mobile/uploads?uploadType=file', {
      method: 'POST',
      body,
      token: person.token,
      headers: { 'content-type': type },
      duplex: 'half',
    });
    // Past the guard, once the handler opened its spool: the erasure revokes the session, then the body ends.
    await waitFor(async () => (await readdir(tmpdir())).some((name) => name.startsWith('media-upload-') && !spools.has(name)), { what: 'the upload handled' });
    await media.app.get(SessionRevocations).revoke(sessionId, 60);
    release();
    const response = await answer;
    expect(response.status).toBe(401);
    expect(await media.prisma.upload.count({ where: { ownerId: person.userId } })).toBe(0);
    expect(await store.keys()).toEqual(before);
  });

  it('deletes every file the account uploaded, public and private, frees its quota, and leaves others’ files alone', async () => {
    const person = await media.caller('mobile');
    const other = await media.caller('mobile');
    const privateKey = await uploaded(person, 'file', form('file', PDF, 'mine.pdf', 'application/pdf'));
    const publicKey = await uploaded(person, 'avatar', form('file', await image('png'), 'me.png', 'image/png'));
    const othersKey = await uploaded(other, 'file', form('file', PDF, 'theirs.pdf', 'application/pdf'));
    const signed = (await (await media.fetch(`/api/mobile/uploads/signed-url/${privateKey}`, { token: person.token })).json()) as Envelope;
    expect(await store.keys()).toEqual(expect.arrayContaining([privateKey, publicKey, othersKey]));

    await erased(person.userId);

    const keys = await store.keys();
    expect(keys).not.toContain(privateKey);
    expect(keys).not.toContain(publicKey);
    expect(keys.filter((key) => key.startsWith(`${publicKey}`) || key.startsWith(privateKey))).toEqual([]);
    expect(keys).toContain(othersKey);
    expect(await media.prisma.upload.count({ where: { ownerId: person.userId } })).toBe(0);
    expect(await media.prisma.upload.count({ where: { ownerId: other.userId } })).toBe(1);

    const url = String(signed.data?.['url']);
    const fetched = s3 ? await fetch(url) : await media.fetch(new URL(url).pathname + new URL(url).search);
    expect([403, 404]).toContain(fetched.status);
    if (s3) expect([403, 404]).toContain((await fetch(`${s3.endpoint}/${s3.bucket}/${publicKey}`)).status);

    // A duplicate of the message, and an erasure of an account with no files, change nothing more.
    await erased(person.userId);
    expect(await store.keys()).toContain(othersKey);
  });
});
