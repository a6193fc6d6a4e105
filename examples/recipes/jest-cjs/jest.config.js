// Jest's default setup (CommonJS, babel-jest): no configuration beyond the mock's setup and teardown.
module.exports = {
  globalSetup: './global-setup.js',
  globalTeardown: './global-teardown.js',
  setupFilesAfterEnv: ['./petstore.js'],
};
