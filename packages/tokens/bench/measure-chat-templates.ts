// Prints each open-weight family's chat-template overhead, measured by rendering its template
// (see src/test-utils/chat-template-overhead.ts). Run: node bench/measure-chat-templates.ts
import { type OpenWeightTokenizer, tokenizerPackages } from '../src/load-open-weight-tokenizer.ts';
import { measureChatFormat } from '../src/test-utils/chat-template-overhead.ts';

for (const name of Object.keys(tokenizerPackages) as OpenWeightTokenizer[]) {
  try {
    console.log(name, JSON.stringify(measureChatFormat(name)));
  } catch (error) {
    console.log(name, 'not measured:', (error as Error).message);
  }
}
