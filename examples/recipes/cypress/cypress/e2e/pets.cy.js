describe('the pet store, through the mock', () => {
  it('adds a pet that only this spec sees', () => {
    cy.petstore('/pets', { method: 'POST', body: { name: 'Rex', categoryId: 1 } }).then((response) => {
      expect(response.status).to.eq(201);
      expect(response.body.id).to.eq(51); // the first pet added to a fresh session
    });
    cy.petstore('/pets/51').then((response) => {
      expect(response.body.name).to.eq('Rex');
    });
  });

  it('starts from the seeded pets again', () => {
    cy.petstore('/pets', { method: 'POST', body: { name: 'Max', categoryId: 1 } }).then((response) => {
      expect(response.body.id).to.eq(51); // the session was reset: Rex, of the test before, is gone and its id given again
    });
  });

  it('gets the 404 the spec documents, without failing the test, when asked not to', () => {
    cy.petstore('/pets/51', { failOnStatusCode: false }).then((response) => {
      expect(response.status).to.eq(404);
    });
  });
});
