// Native ESM Jest: run it with `NODE_OPTIONS=--experimental-vm-modules npx jest`. No transform: the tests are JavaScript modules.
export default {
  globalSetup: './global-setup.mjs',
  globalTeardown: './global-teardown.mjs',
  setupFilesAfterEnv: ['./petstore.mjs'],
  transform: {},
};
