import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { stepCountIs, streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from './create-workspace.js';
import { createScriptedAgentModel } from './scripted-agent-model.js';
import { createWorkspaceTools } from './workspace-tools.js';

const workspaces: Workspace[] = [];
afterEach(async () => {
  await Promise.all(workspaces.splice(0).map((workspace) => workspace.remove()));
});

async function runTurn(messages: ModelMessage[], directory: string) {
  const result = streamText({
    model: createScriptedAgentModel({ stepDelayMs: 0, chunkDelayMs: 0 }),
    instructions: 'You are a coding agent.',
    messages,
    tools: createWorkspaceTools(directory),
    stopWhen: stepCountIs(20),
  });
  const response = await result.response;
  return { text: await result.text, messages: response.messages, steps: await result.steps };
}

describe('scripted agent model', () => {
  it('works through TODO.md with real tool calls, edits files, and hits and recovers from errors', async () => {
    const workspace = await createWorkspace();
    workspaces.push(workspace);
    const history: ModelMessage[] = [];
    const texts: string[] = [];
    const toolErrors: string[] = [];
    for (let turn = 0; turn < 8; turn++) {
      history.push({ role: 'user', content: 'continue' });
      const { text, messages, steps } = await runTurn(history, workspace.directory);
      history.push(...messages);
      texts.push(text);
      for (const step of steps) {
        for (const part of step.content) {
          if (part.type === 'tool-error') toolErrors.push(String(part.error));
        }
      }
    }
    // Triage really ran the suite, which fails before the fixes.
    expect(texts[0]).toMatch(/failed/);
    expect(texts[0]).not.toMatch(/0 failed/);
    // The deliberate slip in task 3 surfaced as a tool error from the real edit.
    expect(toolErrors.join('\n')).toMatch(/text to replace not found in src\/inventory\.js/);
    // After the fixes the whole suite passes (task 4's final run).
    expect(texts[3]).toMatch(/Whole suite now: \d+ passed, 0 failed/);
    const todo = await readFile(path.join(workspace.directory, 'TODO.md'), 'utf8');
    expect(todo.match(/- \[x\]/g)).toHaveLength(8);
    const price = await readFile(path.join(workspace.directory, 'src/price.js'), 'utf8');
    expect(price).toContain('absolute % 100');
    expect(texts[6]).toContain('TOTAL');
    // Work continues with a review round once the list is done.
    history.push({ role: 'user', content: 'continue' });
    const next = await runTurn(history, workspace.directory);
    expect(next.text).toMatch(/review round 1/);
  }, 60_000);

  it('acknowledges free text but keeps to its plan', async () => {
    const workspace = await createWorkspace();
    workspaces.push(workspace);
    const { text } = await runTurn(
      [{ role: 'user', content: 'Please write me a poem' }],
      workspace.directory,
    );
    expect(text).toContain('Please write me a poem');
    expect(text).toContain('Run the test suite and triage the failures');
  });
});
