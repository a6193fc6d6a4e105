import { defineConfig } from 'cypress';
import { startMockServer } from 'petstore-mock';

export default defineConfig({
  e2e: {
    // The mock starts with `cypress run` (or `cypress open`) and stops after the run; specs read its URL,
    // which ends in /v1, with Cypress.env('PETSTORE_URL').
    async setupNodeEvents(on, config) {
      const mock = await startMockServer({ port: 0 });
      on('after:run', () => mock.close());
      config.env.PETSTORE_URL = mock.url;
      return config;
    },
  },
});
