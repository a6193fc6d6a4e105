#!/usr/bin/env node
import { runVerifyCli } from '../dist/contracts/cli.js';

process.exitCode = await runVerifyCli(process.argv.slice(2));
