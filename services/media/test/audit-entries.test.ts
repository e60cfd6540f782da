import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type AuditedAnswer, auditedAnswer, auditedHeaders, auditEntriesIn, unexpectedInBurst } from '@school/messaging/testing';
import { form, image, PDF } from './support/files.js';
import { type MediaUnderTest, startMedia } from './support/media-app.js';

const CLIENT_IP = '192.0.2.44';
const USER_AGENT = 'audit-test/1.0 (media)';

type Answer = AuditedAnswer;

describe("audit entries of media (contract §13): one per administrator's stored upload, none for a customer's or a refused one", () => {
  let media: MediaUnderTest;

  beforeAll(async () => {
    media = await startMedia();
  });

  afterAll(async () => {
    await media?.close();
  });

  async function upload(path: string, body: FormData, token: string): Promise<Answer> {
    const response = await media.fetch(path, {
      method: 'POST',
      body,
      token,
      headers: auditedHeaders(media.forwardedFrom(CLIENT_IP), USER_AGENT),
    });
    return auditedAnswer(response);
  }

  const entries = () => auditEntriesIn(media.prisma, media.schema);
  const keyOf = (answer: Answer) => (answer.body.data as { relativePath: string }).relativePath;

  it('records an administrator upload, its key as the target, the caller and the request it came from', async () => {
    const admin = await media.caller('admin');
    const answer = await upload('/api/upload?uploadType=file', form('file', PDF, 'report.pdf', 'application/pdf'), admin.token);
    expect(answer.status).toBe(200);
    const key = keyOf(answer);
    const recorded = (await entries()).filter((entry) => entry.target?.id === key);
    expect(recorded).toEqual([
      expect.objectContaining({
        action: 'file.upload',
        target: { type: 'file', id: key },
        actor: { publicId: admin.userId, role: 'admin' },
        changes: expect.objectContaining({ originalName: { from: null, to: 'report.pdf' }, mimeType: { from: null, to: 'application/pdf' }, size: { from: null, to: PDF.length } }),
        ip: CLIENT_IP,
        userAgent: USER_AGENT,
        requestId: answer.requestId,
      }),
    ]);
    expect(answer.requestId).toEqual(expect.any(String));
  });

  it("records one entry per file of a multiple upload, and nothing for a customer's upload or a refused one", async () => {
    const admin = await media.caller('admin');
    const customer = await media.caller('mobile');
    const before = (await entries()).length;
    expect((await upload('/api/mobile/uploads?uploadType=image', form('file', await image('png'), 'me.png', 'image/png'), customer.token)).status).toBe(200);
    expect((await upload('/api/upload?uploadType=image', form('file', PDF, 'fake.png', 'image/png'), admin.token)).status).toBe(400);
    expect((await upload('/api/upload?uploadType=file', form('file', PDF, 'report.pdf', 'application/pdf'), customer.token)).status).toBe(403);
    expect(await entries()).toHaveLength(before);

    const files = new FormData();
    files.append('files', new Blob([PDF], { type: 'application/pdf' }), 'one.pdf');
    files.append('files', new Blob([PDF], { type: 'application/pdf' }), 'two.pdf');
    const many = await upload('/api/upload/multiple?uploadType=file', files, admin.token);
    expect(many.status).toBe(200);
    const keys = (many.body.data as { relativePath: string }[]).map((file) => file.relativePath);
    const recorded = (await entries()).filter((entry) => keys.includes(entry.target?.id ?? ''));
    expect(recorded.map((entry) => entry.target?.id).sort()).toEqual([...keys].sort());
  });

  it('records exactly one entry for each of 50 parallel uploads, and none for one answered 503', async () => {
    const admins = await Promise.all(Array.from({ length: 50 }, () => media.caller('admin')));
    const before = (await entries()).length;
    const answers = await Promise.all(admins.map((admin, at) => upload('/api/upload?uploadType=file', form('file', PDF, `parallel-${at}.pdf`, 'application/pdf'), admin.token)));
    expect(unexpectedInBurst(answers, 200)).toEqual([]);
    const stored = answers.filter((answer) => answer.status === 200);
    expect(stored.length).toBeGreaterThan(0);
    const keys = new Set(stored.map(keyOf));
    const after = await entries();
    expect(after).toHaveLength(before + stored.length);
    const recorded = after.filter((entry) => keys.has(entry.target?.id ?? ''));
    expect(recorded).toHaveLength(stored.length);
    expect(new Set(recorded.map((entry) => entry.requestId)).size).toBe(stored.length);
  });
});
