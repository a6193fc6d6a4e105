// Runs the Cypress recipe's spec under vitest, with cypress-stand-in.mjs in place of Cypress (see there).
export default {
  test: {
    include: ['cypress/e2e/**/*.cy.js'],
    setupFiles: ['./cypress-stand-in.mjs', './cypress/support/e2e.js'],
    globalSetup: ['./cypress-node-events.mjs'],
  },
};
