#!/usr/bin/env node
import { runMockCli } from '../dist/mock/cli.js';

const code = await runMockCli(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
