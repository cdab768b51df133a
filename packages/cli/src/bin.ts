#!/usr/bin/env node
import { ignoreClosedPipe } from './ignore-closed-pipe.js';
import { runCli } from './run-cli.js';

ignoreClosedPipe(process.stdout);
ignoreClosedPipe(process.stderr);
process.exitCode = await runCli(process.argv.slice(2));
