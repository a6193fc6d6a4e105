// vitest's globalSetup for the Cypress recipe: calls the recipe's setupNodeEvents as Cypress would at the
// start of a run, hands the config's `env` to the specs as Cypress does, and runs its `after:run` handlers last.
// It is copied beside the recipe's cypress.config.mjs, which it imports from there.
export default async function setup() {
  const { default: config } = await import(new URL('./cypress.config.mjs', import.meta.url).href);
  const handlers = new Map();
  const resolved = await config.e2e.setupNodeEvents((event, handler) => handlers.set(event, handler), { env: {} });
  for (const [name, value] of Object.entries(resolved.env)) process.env[`CYPRESS_${name}`] = String(value);
  return async () => {
    await handlers.get('after:run')?.({});
  };
}
