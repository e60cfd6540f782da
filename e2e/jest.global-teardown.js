export default async function globalTeardown() {
  await globalThis.sharedSystemHost?.stop();
}
