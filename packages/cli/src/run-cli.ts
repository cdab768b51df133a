import { readFileSync } from 'node:fs';
import { BatonError } from '@baton/tokens';
import type { CliIo } from './cli-io.js';
import { countCommand } from './count-command.js';
import { EXIT_CODES } from './exit-codes.js';
import { helpText } from './help-text.js';
import { InputFileError } from './input-file-error.js';
import { parseCliArguments } from './parse-cli-arguments.js';
import { printableText } from './printable-text.js';
import { safeErrorText } from './safe-error-text.js';
import { shownFileName } from './shown-file-name.js';
import { UsageError } from './usage-error.js';

export { EXIT_CODES } from './exit-codes.js';

/**
 * Runs `baton` with `args` (without the node and script paths) and resolves to the exit code.
 * Never throws and never calls `process.exit`: the `bin` entry does that, so this is testable
 * in-process. Bad input prints one line naming the file and the problem and returns 2.
 */
export async function runCli(args: readonly string[], io: Partial<CliIo> = {}): Promise<number> {
  const streams: CliIo = {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    env: io.env ?? process.env,
  };
  try {
    const parsed = parseCliArguments(args);
    switch (parsed.command) {
      case 'help':
        streams.stdout.write(helpText(parsed.topic));
        return EXIT_CODES.ok;
      case 'version':
        streams.stdout.write(`${packageVersion()}\n`);
        return EXIT_CODES.ok;
      case 'count':
        return await countCommand(parsed.settings, streams);
      case 'compact': {
        const { compactCommand } = await import('./compact-command.js');
        return await compactCommand(parsed.settings, streams);
      }
      case 'lineage': {
        // PGlite is heavy to load; only `lineage` pays for it.
        const { lineageCommand } = await import('./lineage-command.js');
        return await lineageCommand(parsed.settings, streams);
      }
      case 'recall': {
        const { recallCommand } = await import('./recall-command.js');
        return await recallCommand(parsed.settings, streams);
      }
      case 'sessions': {
        const { sessionsCommand } = await import('./sessions-command.js');
        return await sessionsCommand(parsed.settings, streams);
      }
      case 'summarize': {
        const { summarizeCommand } = await import('./summarize-command.js');
        return await summarizeCommand(parsed.settings, streams);
      }
    }
  } catch (error) {
    if (UsageError.isInstance(error)) {
      // Usage messages are Baton's own and never quote a value (safe-error-text.ts).
      streams.stderr.write(`baton: ${printableText(error.message)} (see baton --help)\n`);
      return EXIT_CODES.badInput;
    }
    if (InputFileError.isInstance(error)) {
      // The problem may quote the file's content; the name is the user's argument, but a token
      // pasted where a file name goes (`baton count ghp_…`) is as much a secret as any other.
      const problem = error.message.slice(error.file.length + 2);
      const file = shownFileName(error.file);
      streams.stderr.write(`baton: ${printableText(`${file}: ${safeErrorText(problem)}`)}\n`);
      return EXIT_CODES.badInput;
    }
    const message = error instanceof Error ? error.message : String(error);
    const code = BatonError.isInstance(error) ? ` [${error.code}]` : '';
    streams.stderr.write(`baton: ${printableText(safeErrorText(message))}${code}\n`);
    return EXIT_CODES.failure;
  }
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return String(manifest.version);
}
