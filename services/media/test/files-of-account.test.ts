import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FILES_OF_ACCOUNT } from '@school/contracts';
import { rpcStandIn, type RpcStandIn } from '@school/messaging/testing';
import { scaled } from '@school/testing';
import { type Caller, type MediaUnderTest, startMedia } from './support/media-app.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** FILES_OF_ACCOUNT (contract §11 export): media answers identity with every file an account stores now, and nobody else's. */
describe('media answers FILES_OF_ACCOUNT', () => {
  let media: MediaUnderTest;
  let identity: RpcStandIn;

  beforeAll(async () => {
    media = await startMedia();
    identity = await rpcStandIn(media.brokerPrefix, { callTimeoutMs: scaled(3_000), readyWithinMs: scaled(10_000) });
  });

  afterAll(async () => {
    await identity?.close();
    await media?.close();
  });

  async function upload(caller: Caller, uploadType: string, bytes: Buffer, name: string, type: string): Promise<Record<string, unknown>> {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    const answer = await media.fetch(`/api/mobile/uploads?uploadType=${uploadType}`, { method: 'POST', body, token: caller.token });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { data: Record<string, unknown> }).data;
  }

  it('lists the private and public files the account stores, oldest first, and nothing of another account', async () => {
    const owner = await media.caller('mobile');
    const other = await media.caller('mobile');
    const note = await upload(owner, 'file', Buffer.from('hello\n'), 'note.txt', 'text/plain');
    const avatar = await upload(owner, 'avatar', PNG, 'face.png', 'image/png');
    await upload(other, 'file', Buffer.from('not yours\n'), 'other.txt', 'text/plain');

    const { files } = await identity.rpc.call(FILES_OF_ACCOUNT, { ownerId: owner.userId });
    expect(files).toEqual([
      { key: note['relativePath'], uploadType: 'file', originalName: 'note.txt', mimeType: note['mimeType'], size: note['size'], createdAt: expect.any(String) },
      { key: avatar['relativePath'], uploadType: 'avatar', originalName: 'face.png', mimeType: avatar['mimeType'], size: avatar['size'], createdAt: expect.any(String) },
    ]);
    expect(String(avatar['relativePath'])).toMatch(/^public\/avatar\//);
  });

  it('answers an empty list for an account with no file', async () => {
    expect(await identity.rpc.call(FILES_OF_ACCOUNT, { ownerId: (await media.caller('admin')).userId })).toEqual({ files: [] });
  });
});
