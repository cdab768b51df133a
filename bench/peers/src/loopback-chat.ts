/**
 * One chat-completions call to the loopback summariser server, as the TypeScript peers' summariser in the
 * local-model runs. A non-2xx answer throws with the server's message (the peer then shows what it does
 * when its summariser fails).
 */
export async function postChat(
  url: string,
  messages: ReadonlyArray<Record<string, unknown>>,
  maxTokens?: number,
): Promise<string> {
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'local-summarizer',
      messages,
      ...(maxTokens ? { max_tokens: maxTokens } : {}),
    }),
  });
  const body = (await response.json()) as {
    choices?: Array<{ message?: { content?: unknown } }>;
    error?: { message?: string };
  };
  if (!response.ok) {
    throw new Error(`summariser server ${response.status}: ${body.error?.message ?? 'no message'}`);
  }
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new Error('summariser server: reply without content');
  return content;
}
