#!/usr/bin/env node
import { dropWritesToClosedPipes } from './closed-pipe.js';
import { requireSupportedNode } from './supported-node.js';

// Before the command is loaded: on an older Node it would fail later, with an error that does not say why.
requireSupportedNode('petstore-mock');
dropWritesToClosedPipes();
const { runMockCli } = await import('../dist/bin/petstore-mock.js');
const code = await runMockCli(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
