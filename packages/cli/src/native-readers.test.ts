import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateMessages, validateToolPairs } from '@baton/compressor';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from './index.js';
import { runBuiltCli } from './test-utils/run-built-cli.js';

const folder = mkdtempSync(join(tmpdir(), 'baton-readers-'));
const at = (second: number) => `2026-01-16T10:00:${String(second).padStart(2, '0')}.000Z`;

// A Codex CLI rollout as the CLI writes it (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): one
// `{ timestamp, type, payload }` per line, built here from the documented shapes.
const codexLines = [
  {
    type: 'session_meta',
    payload: {
      id: '019e0000-0000-7000-8000-000000000001',
      timestamp: at(0),
      cwd: '/home/user/project',
      originator: 'codex_cli_rs',
      cli_version: '0.80.0',
      base_instructions: { text: 'You are Codex, a coding agent.' },
    },
  },
  { type: 'turn_context', payload: { cwd: '/home/user/project', model: 'gpt-5-codex' } },
  {
    type: 'response_item',
    payload: {
      type: 'message',
      role: 'developer',
      content: [{ type: 'input_text', text: '<permissions>workspace-write</permissions>' }],
    },
  },
  {
    type: 'response_item',
    payload: {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'Why does the build fail?' }],
    },
  },
  { type: 'event_msg', payload: { type: 'user_message', message: 'Why does the build fail?' } },
  {
    type: 'response_item',
    payload: {
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Look at the build script first.' }],
      encrypted_content: 'gAAAAB…',
    },
  },
  {
    type: 'response_item',
    payload: {
      type: 'function_call',
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: 'npm run build' }),
      call_id: 'call_build',
    },
  },
  {
    type: 'response_item',
    payload: {
      type: 'function_call_output',
      call_id: 'call_build',
      output: 'Process exited with code 2\nerror TS2304: Cannot find name "x".',
    },
  },
  {
    type: 'response_item',
    payload: {
      type: 'custom_tool_call',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** Update File: src/a.ts\n-x\n+1\n*** End Patch',
      call_id: 'call_patch',
      status: 'completed',
    },
  },
  {
    type: 'response_item',
    payload: { type: 'custom_tool_call_output', call_id: 'call_patch', output: 'Success.' },
  },
  {
    type: 'response_item',
    payload: {
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'search', query: 'TS2304' },
    },
  },
  {
    type: 'response_item',
    payload: {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Fixed: `x` was undefined.' }],
    },
  },
  { type: 'event_msg', payload: { type: 'agent_message', message: 'Fixed: `x` was undefined.' } },
  { type: 'event_msg', payload: { type: 'token_count', info: null } },
  {
    type: 'response_item',
    payload: { type: 'function_call_output', call_id: 'call_unknown', output: 'orphan' },
  },
].map((line, index) => JSON.stringify({ timestamp: at(index), ...line }));

// A Gemini CLI chat recording (`~/.gemini/tmp/<project hash>/chats/session-*.json`).
const gemini = {
  sessionId: '37b7abef-0000-4000-8000-000000000001',
  projectHash: 'f'.repeat(64),
  startTime: at(0),
  lastUpdated: at(9),
  messages: [
    { id: 'm1', timestamp: at(1), type: 'user', content: 'List the files.' },
    {
      id: 'm2',
      timestamp: at(2),
      type: 'gemini',
      content: '',
      thoughts: [{ subject: 'Listing', description: 'I will list the folder.', timestamp: at(2) }],
      toolCalls: [
        {
          id: 'list_directory-1768561360195-1',
          name: 'list_directory',
          args: { path: '.' },
          result: [
            {
              functionResponse: {
                id: 'list_directory-1768561360195-1',
                name: 'list_directory',
                response: { output: 'README.md\nsrc/' },
              },
            },
          ],
          status: 'success',
          timestamp: at(3),
          displayName: 'ReadFolder',
          resultDisplay: 'Listed 2 item(s).',
        },
        {
          id: 'read_file-1768561360195-2',
          name: 'read_file',
          args: { absolute_path: '/nope' },
          result: [
            {
              functionResponse: {
                id: 'read_file-1768561360195-2',
                name: 'read_file',
                response: { error: 'File not found: /nope' },
              },
            },
          ],
          status: 'error',
          timestamp: at(4),
        },
      ],
      model: 'gemini-2.5-pro',
      tokens: { input: 100, output: 20, cached: 0, thoughts: 5, tool: 0, total: 125 },
    },
    { id: 'm3', timestamp: at(5), type: 'info', content: 'Request cancelled.' },
    {
      id: 'm4',
      timestamp: at(6),
      type: 'gemini',
      content: 'There are two entries.',
      model: 'gemini-2.5-pro',
    },
  ],
};

describe('native readers for Codex CLI and Gemini CLI', () => {
  it('reads a Codex CLI rollout', () => {
    const transcript = parseTranscript(`${codexLines.join('\n')}\n`, { file: 'rollout.jsonl' });
    expect(transcript.format).toBe('codex-cli');
    const { messages } = transcript;
    validateMessages(messages);
    expect(validateToolPairs(messages).problems).toEqual([]);
    expect(messages[0]).toEqual({ role: 'system', content: 'You are Codex, a coding agent.' });
    expect(messages[1]).toEqual({
      role: 'system',
      content: '<permissions>workspace-write</permissions>',
    });
    expect(messages[2]).toEqual({ role: 'user', content: 'Why does the build fail?' });
    expect(messages[3]).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Look at the build script first.' },
        {
          type: 'tool-call',
          toolCallId: 'call_build',
          toolName: 'exec_command',
          input: { cmd: 'npm run build' },
        },
      ],
    });
    expect(messages[4]).toMatchObject({
      role: 'tool',
      content: [
        {
          toolCallId: 'call_build',
          output: { type: 'text', value: expect.stringContaining('TS2304') },
        },
      ],
    });
    expect(messages[5]).toMatchObject({
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolName: 'apply_patch',
          input: { input: expect.stringContaining('Begin Patch') },
        },
      ],
    });
    const text = JSON.stringify(messages);
    // The user's ask once (the event line repeats it), the answer once, no token counts.
    expect(text.split('Why does the build fail?')).toHaveLength(2);
    expect(text.split('Fixed: `x` was undefined.')).toHaveLength(2);
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text' }] });
    expect(transcript.warnings).toEqual([
      'line 15: dropped a tool output whose call is not in the rollout',
    ]);
  });

  it('takes the user messages from events when a rollout has no user items', () => {
    const lines = codexLines.filter((line) => !line.includes('"role":"user"'));
    const { messages } = parseTranscript(lines.join('\n'));
    expect(messages.filter((message) => message.role === 'user')).toEqual([
      { role: 'user', content: 'Why does the build fail?' },
    ]);
    expect(messages[2]).toEqual({ role: 'user', content: 'Why does the build fail?' });
  });

  it('reads a Gemini CLI session', () => {
    const transcript = parseTranscript(JSON.stringify(gemini, null, 2), { file: 'session.json' });
    expect(transcript.format).toBe('gemini-cli');
    const { messages } = transcript;
    validateMessages(messages);
    expect(validateToolPairs(messages).problems).toEqual([]);
    expect(messages).toHaveLength(4);
    expect(messages[0]).toEqual({ role: 'user', content: 'List the files.' });
    expect(messages[1]).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: '**Listing** I will list the folder.' },
        { type: 'tool-call', toolName: 'list_directory', input: { path: '.' } },
        { type: 'tool-call', toolName: 'read_file' },
      ],
    });
    expect(messages[2]).toMatchObject({
      role: 'tool',
      content: [
        { output: { type: 'text', value: 'README.md\nsrc/' } },
        { output: { type: 'error-text', value: 'File not found: /nope' } },
      ],
    });
    expect(messages[3]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'There are two entries.' }],
    });
    expect(transcript.warnings).toEqual(['skipped 1 UI notice (info, error, warning)']);
  });

  it('still reads an OpenAI request body with `messages` as OpenAI chat', () => {
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [] },
      ],
    };
    expect(parseTranscript(JSON.stringify(body)).format).toBe('openai-chat');
  });

  it('detects both formats in the built binary, and --format forces them', async () => {
    const rollout = join(folder, 'rollout-2026-01-16T10-00-00-019e.jsonl');
    writeFileSync(rollout, `${codexLines.join('\n')}\n`);
    const session = join(folder, 'session-2026-01-16T10-00-37b7abef.json');
    writeFileSync(session, JSON.stringify(gemini));
    for (const [file, format] of [
      [rollout, 'codex-cli'],
      [session, 'gemini-cli'],
    ] as const) {
      const count = await runBuiltCli(['count', file, '--json']);
      expect(count.code, count.stderr).toBe(0);
      expect(JSON.parse(count.stdout)).toMatchObject({ format });
      const forced = await runBuiltCli(['count', file, '--format', format, '--json']);
      expect(JSON.parse(forced.stdout)).toMatchObject({ format });
      const out = join(folder, `${format}.out.json`);
      const compact = await runBuiltCli(['compact', file, '--window', '16k', '--out', out]);
      expect(compact.code, compact.stderr).toBe(0);
      expect(parseTranscript(readText(out)).format).toBe('ai-sdk');
    }
  });
});

import { readFileSync } from 'node:fs';

const readText = (file: string) => readFileSync(file, 'utf8');
