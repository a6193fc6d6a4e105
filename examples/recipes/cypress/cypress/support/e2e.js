// A session of the mock for each spec, so that specs running at once (CI machines sharing one mock) never see
// each other's pets; reset before every test, so each starts from the seeded pets.
const session = () => `cypress-${Cypress.spec.name.replace(/[^\w.~-]/g, '-')}`.slice(0, 64);

beforeEach(() => {
  // X-Mock-Admin is optional from a script; the mock refuses admin requests from web pages of other origins.
  cy.request({ method: 'POST', url: new URL(`/__mock/sessions/${session()}/reset`, Cypress.env('PETSTORE_URL')).href, headers: { 'x-mock-admin': '1' } });
});

/** cy.petstore('/pets', { method: 'POST', body }): cy.request on the mock's API, with the key and this spec's session. */
Cypress.Commands.add('petstore', (path, options = {}) =>
  cy.request({
    ...options,
    url: `${Cypress.env('PETSTORE_URL')}${path}`,
    headers: { authorization: 'Bearer petstore-dev-key', 'x-mock-session': session(), ...options.headers },
  }),
);
