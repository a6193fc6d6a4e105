#!/usr/bin/env node
import { dropWritesToClosedPipes } from './closed-pipe.js';
import { requireSupportedNode } from './supported-node.js';

// Before the command is loaded: on an older Node it would fail later, with an error that does not say why.
requireSupportedNode('petstore-verify');
dropWritesToClosedPipes();
const { runVerifyCli } = await import('../dist/contracts/verify-cli.js');
process.exitCode = await runVerifyCli(process.argv.slice(2));
