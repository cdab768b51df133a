import { createTokenCounter } from '@baton/tokens';
import type { CliIo } from './cli-io.js';
import { describeMessage } from './describe-message.js';
import { formatNumber } from './format-number.js';
import { modelWarning, resolveCliModel, shownModel } from './model-warning.js';
import type { CountSettings } from './parse-cli-arguments.js';
import { readTranscript } from './read-transcript.js';
import { shownFileName } from './shown-file-name.js';

/** `baton count <file>`: tokens per message and in total. Returns the exit code. */
export async function countCommand(settings: CountSettings, io: CliIo): Promise<number> {
  const transcript = await readTranscript(settings.file, {
    format: settings.format,
    claudeCode: { history: settings.fullHistory ? 'all' : 'live' },
  });
  // Only the count depends on the model here (no window): the warning says so, once.
  const model = resolveCliModel(settings.model);
  settings = { ...settings, model: model.id };
  const warning = modelWarning(model, { windowGiven: true });
  const warnings = warning === undefined ? [] : [warning];
  if (transcript.format === 'claude-code' && transcript.compactions > 0 && !settings.fullHistory) {
    const times = transcript.compactions === 1 ? 'once' : `${transcript.compactions} times`;
    warnings.push(
      `Claude Code compacted this session ${times}: counting only what the model sees now (its summary and the turns after the last compaction); --full-history counts every recorded turn`,
    );
  }
  if (!settings.json) {
    for (const text of warnings) io.stderr.write(`baton: warning: ${text}\n`);
  }
  const counter = createTokenCounter({
    model: settings.model,
    warn: (text) => io.stderr.write(`baton: ${text}\n`),
  });
  try {
    const rows = transcript.messages.map((message, index) => ({
      index,
      role: message.role,
      parts: describeMessage(message),
      tokens: counter.countMessage(message),
    }));
    const total = counter.countMessages(transcript.messages);
    if (settings.json) {
      io.stdout.write(
        `${JSON.stringify({
          file: shownFileName(transcript.file),
          format: transcript.format,
          model: shownModel(model),
          encoding: counter.encoding,
          exact: counter.exact,
          warnings,
          messages: rows,
          total,
        })}\n`,
      );
      return 0;
    }
    const width = Math.max(6, formatNumber(total).length);
    const lines = [
      `${shownFileName(transcript.file)} (${transcript.format}, ${rows.length} messages) ${shownModel(model)}: ${counter.encoding}${counter.exact ? '' : ' (estimate)'}`,
      `${'#'.padStart(5)}  ${'role'.padEnd(9)}  ${'tokens'.padStart(width)}  parts`,
      ...rows.map(
        (row) =>
          `${String(row.index).padStart(5)}  ${row.role.padEnd(9)}  ${formatNumber(row.tokens).padStart(width)}  ${row.parts}`,
      ),
      `total ${formatNumber(total)} tokens (${formatNumber(total - rows.reduce((sum, row) => sum + row.tokens, 0))} of them reply priming)`,
    ];
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    counter.dispose();
  }
}
