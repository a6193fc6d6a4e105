module.exports = async function globalTeardown() {
  await globalThis.petstoreMock?.close();
};
