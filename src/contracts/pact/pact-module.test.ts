import { describe, expect, it } from 'vitest';
import { loadPactCore, PACT_INSTALL_HINT, pactInstalled } from './pact-module.js';

// The missing case is proven where Pact really is missing: test/package/install.test.ts installs the packed
// package without it.
describe('the optional Pact peer', () => {
  it('is found when installed, as it is here (a devDependency), and its native verifier loaded from where it is', () => {
    expect(pactInstalled()).toBe(true);
    expect(typeof loadPactCore()?.verifyPacts).toBe('function');
  });

  it('has a hint of one line that names the package and the command to install it', () => {
    expect(PACT_INSTALL_HINT).not.toContain('\n');
    expect(PACT_INSTALL_HINT).toContain('npm install --save-dev @pact-foundation/pact');
    expect(PACT_INSTALL_HINT).toContain('--suite spec');
  });
});
