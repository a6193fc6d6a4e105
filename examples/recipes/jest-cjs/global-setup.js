const { startMockServer } = require('petstore-mock');

/** Starts the mock once for the whole run; the test workers read its URL from PETSTORE_URL (it ends in /v1). */
module.exports = async function globalSetup() {
  // globalSetup and globalTeardown share globalThis: the teardown closes this server.
  globalThis.petstoreMock = await startMockServer({ port: 0 });
  process.env.PETSTORE_URL = globalThis.petstoreMock.url;
};
