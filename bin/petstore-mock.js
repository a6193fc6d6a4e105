#!/usr/bin/env node
import { runMockCli } from '../dist/bin/petstore-mock.js';

const code = await runMockCli(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
