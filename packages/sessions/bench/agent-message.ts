/** Agent-like traffic for the benches: an assistant tool call, its result (~600 chars), and a short user turn. */
export function agentMessage(index: number) {
  switch (index % 3) {
    case 0:
      return {
        role: 'assistant',
        content: [
          { type: 'text', text: `Reading the file for step ${index}.` },
          {
            type: 'tool-call',
            toolCallId: `call_${index}`,
            toolName: 'read_file',
            input: { path: `src/module-${index % 50}.ts` },
          },
        ],
      };
    case 1:
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: `call_${index - 1}`,
            toolName: 'read_file',
            output: {
              type: 'text',
              value: `export function step${index}() {\n  return ${index};\n}\n`.repeat(12),
            },
          },
        ],
      };
    default:
      return { role: 'user', content: `Continue with item ${index}, keep the tests green.` };
  }
}
