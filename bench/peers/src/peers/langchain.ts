/**
 * LangChain JS `summarizationMiddleware` inside `createAgent`, as a user runs it: the agent's model is a
 * recording fake that captures what it would be sent after the middleware ran. Trigger at the target, keep
 * half the target (the middleware's default token counter). System text goes in `systemPrompt`.
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, SystemMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { createAgent, summarizationMiddleware } from 'langchain';
import { fromLangChain, toLangChain } from '../convert/langchain.ts';
import { postChat } from '../loopback-chat.ts';
import { PeerOutputError } from '../messages.ts';
import { FAILURE_MESSAGE, FAKE_SUMMARY } from '../summarizers.ts';
import { type Peer, requireUrl } from './types.ts';

class RecordingModel extends BaseChatModel {
  seen: BaseMessage[] | undefined;
  _llmType() {
    return 'peers-recording';
  }
  // The agent binds its (empty) tool list before calling; the recorder ignores tools.
  override bindTools() {
    return this as never;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen = messages;
    return { generations: [{ text: 'ok', message: new AIMessage('ok') }] };
  }
}

class FailingModel extends BaseChatModel {
  _llmType() {
    return 'peers-failing';
  }
  async _generate(): Promise<ChatResult> {
    throw new Error(FAILURE_MESSAGE);
  }
}

/** A chat model that asks the loopback summariser server (local-model runs). */
class LoopbackModel extends BaseChatModel {
  readonly url: string;
  constructor(url: string) {
    super({});
    this.url = url;
  }
  _llmType() {
    return 'peers-loopback';
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const roles: Record<string, string> = { system: 'system', human: 'user', ai: 'assistant' };
    const text = await postChat(
      this.url,
      messages.map((message) => ({
        role: roles[message.getType()] ?? 'tool',
        content:
          typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
      })),
    );
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

export function langchainPeer(version: string): Peer {
  const name = `LangChain JS summarizationMiddleware (langchain ${version})`;
  return {
    name,
    usesSummarizer: true,
    async compact({ messages, targetTokens, mode, summarizerUrl }) {
      const system = messages.filter((message) => message.role === 'system').map((m) => m.content);
      const rest = messages.filter((message) => message.role !== 'system');
      const recorder = new RecordingModel({});
      const summarizer =
        mode === 'local'
          ? new LoopbackModel(requireUrl(summarizerUrl))
          : mode === 'failing'
            ? new FailingModel({})
            : new FakeListChatModel({ responses: [FAKE_SUMMARY] });
      const agent = createAgent({
        model: recorder,
        tools: [],
        ...(system.length > 0 ? { systemPrompt: system.join('\n\n') } : {}),
        middleware: [
          summarizationMiddleware({
            model: summarizer,
            trigger: { tokens: targetTokens },
            keep: { tokens: Math.floor(targetTokens / 2) },
          }),
        ],
      });
      await agent.invoke({ messages: toLangChain(rest) as never });
      if (recorder.seen === undefined)
        throw new PeerOutputError(name, 'the model was never called');
      const seen = recorder.seen.map((message) =>
        message.getType() === 'system' ? new SystemMessage(message.content as string) : message,
      );
      return fromLangChain(seen, name);
    },
  };
}
