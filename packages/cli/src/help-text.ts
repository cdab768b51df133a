/** `baton --help` and `baton <command> --help`. */
export function helpText(
  topic: 'compact' | 'count' | 'lineage' | 'recall' | 'sessions' | 'summarize' | undefined,
): string {
  switch (topic) {
    case 'compact':
      return `Usage: baton compact <file...> [options]

Compacts transcripts and reports tokens before/after, the strategy and fallback used, the
head/middle/tail split, the handoff sections and a tool-pair validity check.

Input: AI SDK ModelMessage[] JSON, OpenAI Chat Completions JSON (an array of messages or
{ "messages": [...] }), Claude Code session JSONL (~/.claude/projects/*/*.jsonl), Codex CLI
rollout JSONL (~/.codex/sessions/**/rollout-*.jsonl) or Gemini CLI session JSON
(~/.gemini/tmp/*/chats/*.json), detected from the content; - reads stdin.
An output that is one of the inputs is refused. A transcript whose verbatim parts cannot fit
the target is reported as "cannot fit" and not written (exit 3).

Options:
  -m, --model <id>          model whose tokenizer and window to use            (default: gpt-4o)
      --window <tokens>     context window, e.g. 32000 or 32k                 (default: the model's)
      --target <tokens>     size to compact to                                 (default: half the window)
      --keep-last <tokens>  recent tokens kept verbatim (protected tail)       (default: the compressor's)
  -s, --strategy <name>     auto | truncate | mask | summarize | receipt       (default: auto)
      --summarizer <p:m>    LLM for summaries: openai:<model>, anthropic:<model>,
                            openai-compatible:<model>                          (default: none, the
                            deterministic receipt is used)
  -o, --out <path>          output file; a folder for several inputs; - for stdout
                                                                               (default: report only)
      --output-format <f>   auto | ai-sdk | openai-chat                        (default: auto, the input's
                            format; Claude Code is written as ai-sdk)
      --format <f>          auto | ai-sdk | openai-chat | claude-code |
                            codex-cli | gemini-cli                             (default: auto)
      --full-history        Claude Code: keep the turns before the last compact boundary
      --json                one JSON document on stdout instead of the report
  -h, --help                this help

Summarizer keys come from the environment: OPENAI_API_KEY, ANTHROPIC_API_KEY, or
OPENAI_COMPATIBLE_BASE_URL (+ optional OPENAI_COMPATIBLE_API_KEY).
`;
    case 'count':
      return `Usage: baton count <file> [options]

Prints the exact tokens of each message and the total prompt tokens.

Options:
  -m, --model <id>     model whose tokenizer to use            (default: gpt-4o)
      --format <f>     auto | ai-sdk | openai-chat | claude-code | codex-cli | gemini-cli
                                                                (default: auto)
      --full-history   Claude Code: keep the turns before the last compact boundary
      --json           one JSON document on stdout
  -h, --help           this help
`;
    case 'lineage':
      return `Usage: baton lineage <dataDir> <id> [options]

Prints the whole tree of the lineage around <id> (a full session id or a unique prefix of 4 or
more characters) in a @baton/sessions PGlite store: ancestors, descendants and other branches,
forks marked FORK, the open leaf marked * OPEN LEAF, the session asked for marked >>, and the
compaction that ended each compacted session. The store is read through a copy, never changed.

Options:
      --json   one JSON document on stdout
  -h, --help   this help
`;
    case 'recall':
      return `Usage: baton recall <dataDir> <session> <query> [options]

Searches the raw history of a conversation in a @baton/sessions PGlite store: <session> (a full id
or a unique prefix of 4 or more characters) and its ancestors, which keep every message that
compactions removed. <query> matches verbatim (an error line, a path, an identifier; ranked first)
or as words in any order and form. Prints each match's session, sequence, role and tool with a
redacted excerpt. The store is read through a copy, never changed.

Options:
  -n, --limit <n>   most matches, 1 to 50                  (default: 5)
      --json        one JSON document on stdout
  -h, --help        this help
`;
    case 'sessions':
      return `Usage: baton sessions <dataDir> [options]

Lists the conversations (lineages) in a @baton/sessions PGlite store, newest activity first:
root id, title, model, messages, compactions, forks and last activity.

Options:
      --json   one JSON document on stdout
  -h, --help   this help
`;
    case 'summarize':
      return `Usage: baton summarize <file> [options]

Summarises a long text (a log, a tool output, a document; - reads stdin) and prints the summary,
redacted, on stdout; stderr says what summarised it. Secrets are redacted before anything is sent.
A text under 2,000 characters comes back unchanged. The summariser, in order: --summarizer; else a
local GGUF model (--model-path, else the cache folder baton-fetch-model fills:
$BATON_CACHE_DIR/models or ~/.cache/baton/models); else none. When there is none, or a call fails,
times out, refuses or runs over, the summary is the text's key lines (first and last lines,
headings, error lines, paths), and the output says why. Needs @baton/local-model.

Options:
      --summarizer <p:m>    openai:<model>, anthropic:<model>, openai-compatible:<model>
                                                                 (default: a local model, else none)
      --model-path <file>   a GGUF model file                    (default: the cache folder)
      --target <tokens>     size of the summary                  (default: 500)
      --detail <level>      brief | concise | detailed           (default: concise)
      --preserve <topic>    a topic the summary must keep (repeatable)
      --timeout <seconds>   per summariser call                  (default: 60)
      --json                one JSON document on stdout: summarizer, strategy, fallbackReason,
                            tokensBefore, tokensAfter, summary
  -h, --help                this help
`;
    default:
      return `Usage: baton <command> [options]

Commands:
  compact <file...>       compact transcripts and report what happened
  count <file>            exact tokens per message and in total
  lineage <dataDir> <id>  the lineage tree around a session (id or unique prefix)
  recall <dataDir> <session> <query>
                          search what compactions removed from a conversation
  sessions <dataDir>      the conversations in a PGlite session store
  summarize <file>        summarise a long text (local model, LLM or key lines)

Options:
  -h, --help      help (also: baton <command> --help)
  -v, --version   version

Input files: - reads stdin. Formats: AI SDK JSON, OpenAI chat JSON, Claude Code JSONL,
Codex CLI rollout JSONL, Gemini CLI session JSON (detected).

Exit codes: 0 done; 1 failure (e.g. an output that could not be written); 2 bad input
(no command, unreadable file, unknown format, invalid JSON, unknown flag or --model, an output
that is an input), nothing written; 3 some transcripts cannot fit the target (reported,
nothing written for them).
`;
  }
}
