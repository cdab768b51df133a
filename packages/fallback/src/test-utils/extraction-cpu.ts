import type { ModelMessage } from '@ai-sdk/provider-utils';
import { extractHandoffFacts } from '../index.js';

/** A window of one ask (`prompt`) and one shell call running `command` that returned `output`. */
export function shellCallWindow(command: string, output: string, prompt = 'go'): ModelMessage[] {
  return [
    { role: 'user', content: prompt },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'bash', input: { command } }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c',
          toolName: 'bash',
          output: { type: 'text', value: output },
        },
      ],
    },
  ];
}

/**
 * CPU milliseconds of `repeats` fact extractions of a window whose one shell call (`command`)
 * returned `output`: the measure of growth-ratio tests on hostile tool output.
 */
export function extractionCpu(output: string, command = 'ls', repeats = 1): number {
  const messages = shellCallWindow(command, output);
  const started = process.cpuUsage();
  for (let round = 0; round < repeats; round++) extractHandoffFacts(messages);
  const spent = process.cpuUsage(started);
  return (spent.user + spent.system) / 1000;
}
