export default async function globalTeardown() {
  await globalThis.petstoreMock?.close();
}
