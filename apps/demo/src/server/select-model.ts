import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ModelDescription } from '../shared/demo-types.js';
import {
  createScriptedAgentModel,
  type ScriptedAgentModelOptions,
} from './scripted-agent-model.js';

export interface SelectedModel {
  model: LanguageModelV4;
  /** LLM that writes compaction summaries; undefined offline (the receipt, unless a local model is found). */
  summarizer: LanguageModelV4 | undefined;
  description: ModelDescription;
}

type Environment = Record<string, string | undefined>;

/**
 * Picks the chat model from the environment, first match wins:
 * `OPENAI_COMPATIBLE_BASE_URL` (Ollama, llama.cpp, vLLM...), `OPENAI_API_KEY`, `ANTHROPIC_API_KEY`;
 * with none of them, the offline scripted agent. `DEMO_MODEL` and `DEMO_SUMMARIZER_MODEL` pick model ids.
 */
export function selectModel(
  environment: Environment,
  scriptedOptions: ScriptedAgentModelOptions = {},
): SelectedModel {
  const modelId = environment['DEMO_MODEL']?.trim() || undefined;
  const summarizerId = environment['DEMO_SUMMARIZER_MODEL']?.trim() || undefined;
  const compatibleUrl = environment['OPENAI_COMPATIBLE_BASE_URL']?.trim();
  if (compatibleUrl) {
    const provider = createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: compatibleUrl,
      apiKey: environment['OPENAI_COMPATIBLE_API_KEY'] || undefined,
    });
    const id = modelId ?? environment['OPENAI_COMPATIBLE_MODEL'] ?? 'llama3.2';
    const summary = summarizerId ?? id;
    return {
      model: provider.chatModel(id),
      summarizer: provider.chatModel(summary),
      description: {
        provider: 'openai-compatible',
        modelId: id,
        offline: false,
        summarizer: summary,
      },
    };
  }
  if (environment['OPENAI_API_KEY']) {
    const provider = createOpenAI({ apiKey: environment['OPENAI_API_KEY'] });
    const id = modelId ?? 'gpt-4.1-mini';
    const summary = summarizerId ?? 'gpt-4.1-nano';
    return {
      model: provider.chat(id),
      summarizer: provider.chat(summary),
      description: { provider: 'openai', modelId: id, offline: false, summarizer: summary },
    };
  }
  if (environment['ANTHROPIC_API_KEY']) {
    const provider = createAnthropic({ apiKey: environment['ANTHROPIC_API_KEY'] });
    const id = modelId ?? 'claude-haiku-4-5';
    const summary = summarizerId ?? id;
    return {
      model: provider.languageModel(id),
      summarizer: provider.languageModel(summary),
      description: { provider: 'anthropic', modelId: id, offline: false, summarizer: summary },
    };
  }
  return {
    model: createScriptedAgentModel(scriptedOptions),
    summarizer: undefined,
    description: {
      provider: 'scripted',
      modelId: 'scripted-coding-agent',
      offline: true,
      summarizer: 'deterministic receipt (no LLM configured)',
      offlineSummarizer: 'receipt',
    },
  };
}
