#!/usr/bin/env node
import * as nodeModule from 'node:module';
import { dropWritesToClosedPipes } from './closed-pipe.js';
import { requireSupportedNode } from './supported-node.js';

// Before the command is loaded: on an older Node it would fail later, with an error that does not say why.
requireSupportedNode('petstore-mock');
dropWritesToClosedPipes();
// V8's code for the CLI and its dependencies, kept between runs (Node's compile cache, in the system's temporary
// folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off): compiling it again was some 13% of a start's CPU.
nodeModule.enableCompileCache?.();
const { runMockCli } = await import('../dist/bin/petstore-mock.js');
const code = await runMockCli(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
