/**
 * Model-answered probes for `pnpm eval`, after Factory's published method: a capable model is asked
 * questions about each compacted context (exact recall, artifact trail, continuation, decision) and
 * each answer is scored deterministically against the facts `extractHandoffFacts` finds in the span
 * the compaction removed. The configured model must be capable: a 135M model's answers say nothing.
 */
import { type HandoffFacts, measureRetention, redactSecrets } from '@baton/fallback';

export interface ProbeModel {
  /** Base URL of an OpenAI-compatible API (ending in `/v1`). */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
}

/**
 * The probe model from the environment: `OPENAI_COMPATIBLE_BASE_URL` (else the OpenAI API when
 * `OPENAI_API_KEY` is set), the model `BATON_EVAL_PROBE_MODEL` (else `OPENAI_COMPATIBLE_MODEL`, else
 * `gpt-4o-mini`). Undefined when neither URL nor key is set: probes are then not run.
 */
export function probeModelFromEnv(env: NodeJS.ProcessEnv = process.env): ProbeModel | undefined {
  const baseUrl =
    env.OPENAI_COMPATIBLE_BASE_URL ||
    (env.OPENAI_API_KEY ? 'https://api.openai.com/v1' : undefined);
  if (!baseUrl) return undefined;
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: env.OPENAI_API_KEY || undefined,
    model: env.BATON_EVAL_PROBE_MODEL || env.OPENAI_COMPATIBLE_MODEL || 'gpt-4o-mini',
  };
}

export type ProbeKind = 'recall' | 'artifactTrail' | 'continuation' | 'decision';

const contentWords = (text: string) =>
  new Set(
    (text.toLowerCase().match(/[a-z][a-z0-9_]{3,}/g) ?? []).filter((word) => word.length > 3),
  );

/** Share of the removed span's asks whose content words the answer mostly holds (a paraphrase counts). */
function asksHeld(answer: string, facts: HandoffFacts): number | undefined {
  const asks = facts.asks.map((ask) => [...contentWords(ask.text)]).filter((w) => w.length >= 2);
  if (asks.length === 0) return undefined;
  const held = contentWords(answer);
  return (
    asks.filter((words) => words.filter((word) => held.has(word)).length / words.length >= 0.6)
      .length / asks.length
  );
}

/** Each probe: its question, and how its answer is scored against the removed span's facts. */
export const probes: ReadonlyArray<{
  kind: ProbeKind;
  question: string;
  score: (answer: string, facts: HandoffFacts) => number | undefined;
}> = [
  {
    kind: 'recall',
    question: 'Quote, word for word, every error message that came up in this session.',
    score: (answer, facts) => measureRetention(answer, facts).errorLines,
  },
  {
    kind: 'artifactTrail',
    question: 'List every file path that was read, created or changed in this session, in full.',
    score: (answer, facts) => measureRetention(answer, facts).weightedPaths,
  },
  {
    kind: 'continuation',
    question:
      'What had the user asked for in this session, request by request, and what is the next step?',
    score: asksHeld,
  },
  {
    kind: 'decision',
    question: 'Which tools did the assistant use, and why did it choose each of them?',
    score: (answer, facts) => measureRetention(answer, facts).toolNames,
  },
];

async function ask(
  model: ProbeModel,
  context: string,
  question: string,
  timeoutMs: number,
): Promise<string> {
  const response = await fetch(`${model.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {}),
    },
    body: JSON.stringify({
      model: model.model,
      temperature: 0,
      messages: [
        {
          role: 'system',
          content:
            'You answer questions about a coding session from its (possibly compacted) record only. If the record does not say, answer "unknown".',
        },
        { role: 'user', content: `<record>\n${context}\n</record>\n\n${question}` },
      ],
    }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`probe model answered HTTP ${response.status}`);
  const body = (await response.json()) as {
    choices?: Array<{ message?: { content?: unknown } }>;
  };
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new Error('probe model returned no text');
  return content;
}

export interface ProbeScores {
  /** Per probe: the score in [0, 1]; undefined when the removed span has no fact of its class. */
  scores: Partial<Record<ProbeKind, number>>;
  /** Probes whose call failed (HTTP error, timeout, no text): not scored. */
  failed: ProbeKind[];
}

/**
 * Asks every probe whose fact class the removed span holds against one compacted context (redacted
 * before it is sent: truncate and mask keep raw text) and scores the answers.
 */
export async function answerProbes(
  context: string,
  removedFacts: HandoffFacts,
  model: ProbeModel,
  options: { timeoutMs?: number } = {},
): Promise<ProbeScores> {
  const { text } = redactSecrets(context);
  const result: ProbeScores = { scores: {}, failed: [] };
  for (const probe of probes) {
    if (probe.score('', removedFacts) === undefined) continue;
    try {
      const answer = await ask(model, text, probe.question, options.timeoutMs ?? 60_000);
      result.scores[probe.kind] = probe.score(answer, removedFacts);
    } catch {
      result.failed.push(probe.kind);
    }
  }
  return result;
}
