import type { FileUrlDto } from '@school/contracts';

/** Spec §4.4: the signed-url route's message says which kind of URL it answers. */
export function urlMessage(url: FileUrlDto): string {
  return url.expiresAt === null ? 'Local URL resolved' : 'Signed URL generated';
}
