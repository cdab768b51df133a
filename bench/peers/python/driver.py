"""Python side of the peers benchmark: runs one Python peer over the transcripts given on stdin.

stdin: {"mode": "fake"|"failing"|"local", "baseUrl" (local), "items": [{"id", "messages" (AI SDK ModelMessage[]), "targetTokens"}],
        "fakeSummary", "failureMessage", "rounds"}
stdout: {"version", "results": [{"id", "messages" | "error", "cpuMs": [..]}]}
Exit 3 with {"reason"} on stdout when the peer cannot be imported or set up here (listed, not scored).
Any other failure, including output this driver cannot convert back, exits non-zero without JSON so that the
harness stops (no silent zero). The summariser is a fake OpenAI-compatible server on 127.0.0.1 (fixed text or
HTTP 503 carrying the failure message), or the framework's own fake model where it has one.
Converters are written here; nothing is copied from the peers.
"""

import importlib.metadata
import json
import sys
import threading
import time
import traceback
import types
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ParseError(Exception):
    pass


def strict(convert):
    """Any failure while converting a peer's output back is a ParseError (the run stops), never a peer error."""

    def wrapped(*args, **kwargs):
        try:
            return convert(*args, **kwargs)
        except ParseError:
            raise
        except Exception as error:
            raise ParseError(f"{convert.__name__}: {type(error).__name__}: {error}") from error

    wrapped.__name__ = convert.__name__
    return wrapped


# ---------------------------------------------------------------- AI SDK <-> OpenAI chat messages


def js_json(value):
    """JSON text as the TypeScript side writes it (JSON.stringify), so every peer sees the same characters."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _text_of(content):
    if isinstance(content, str):
        return content
    return "\n".join(part["text"] for part in content if part.get("type") == "text")


def to_openai(messages):
    out = []
    for message in messages:
        role = message["role"]
        content = message["content"]
        if role in ("system", "user"):
            out.append({"role": role, "content": _text_of(content)})
        elif role == "assistant":
            if isinstance(content, str):
                out.append({"role": "assistant", "content": content})
                continue
            text = "\n".join(p["text"] for p in content if p["type"] == "text")
            reasoning = "\n".join(p["text"] for p in content if p["type"] == "reasoning")
            calls = [
                {
                    "id": p["toolCallId"],
                    "type": "function",
                    "function": {
                        "name": p["toolName"],
                        "arguments": p["input"] if isinstance(p["input"], str) else js_json(p["input"]),
                    },
                }
                for p in content
                if p["type"] == "tool-call"
            ]
            item = {"role": "assistant", "content": text if text or not calls else None}
            if reasoning:
                item["reasoning_content"] = reasoning
            if calls:
                item["tool_calls"] = calls
            out.append(item)
        elif role == "tool":
            for part in content:
                value = part["output"]["value"]
                out.append(
                    {
                        "role": "tool",
                        "tool_call_id": part["toolCallId"],
                        "name": part["toolName"],
                        "content": value if isinstance(value, str) else js_json(value),
                    }
                )
    return out


def _parse_args(arguments):
    if isinstance(arguments, dict):
        return arguments
    try:
        return json.loads(arguments)
    except (TypeError, ValueError):
        return arguments


@strict
def from_openai(messages):
    if not isinstance(messages, list):
        raise ParseError("output is not a list")
    names = {}
    out = []
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or "role" not in message:
            raise ParseError(f"messages[{index}] is not a role dict: {type(message).__name__}")
        role = message["role"]
        content = message.get("content")
        if role == "user" and isinstance(content, list) and all(
            isinstance(part, dict) and part.get("type") == "text" for part in content
        ):
            # Several text blocks in one user message (a framework merging turns) stay separate parts.
            out.append({"role": "user", "content": [{"type": "text", "text": part.get("text", "")} for part in content]})
            continue
        if isinstance(content, list):
            texts = []
            for part in content:
                if isinstance(part, dict) and part.get("type") == "text":
                    texts.append(part.get("text", ""))
                elif isinstance(part, str):
                    texts.append(part)
                else:
                    raise ParseError(f"messages[{index}]: content part {part!r:.80}")
            content = "\n".join(texts)
        if content is not None and not isinstance(content, str):
            raise ParseError(f"messages[{index}]: content of type {type(content).__name__}")
        if role in ("system", "developer"):
            out.append({"role": "system", "content": content or ""})
        elif role == "user":
            out.append({"role": "user", "content": content or ""})
        elif role == "assistant":
            parts = []
            reasoning = message.get("reasoning_content") or message.get("reasoning")
            if isinstance(reasoning, str) and reasoning:
                parts.append({"type": "reasoning", "text": reasoning})
            if content:
                parts.append({"type": "text", "text": content})
            for call in message.get("tool_calls") or []:
                function = call.get("function") or {}
                if not isinstance(call.get("id"), str) or not isinstance(function.get("name"), str):
                    raise ParseError(f"messages[{index}]: tool call without id/name")
                names[call["id"]] = function["name"]
                parts.append(
                    {
                        "type": "tool-call",
                        "toolCallId": call["id"],
                        "toolName": function["name"],
                        "input": _parse_args(function.get("arguments", "{}")),
                    }
                )
            out.append({"role": "assistant", "content": parts})
        elif role == "tool":
            call_id = message.get("tool_call_id")
            if not isinstance(call_id, str):
                raise ParseError(f"messages[{index}]: tool message without tool_call_id")
            part = {
                "type": "tool-result",
                "toolCallId": call_id,
                "toolName": message.get("name") or names.get(call_id, "unknown"),
                "output": {"type": "text", "value": content or ""},
            }
            if out and out[-1]["role"] == "tool":
                out[-1]["content"].append(part)
            else:
                out.append({"role": "tool", "content": [part]})
        else:
            raise ParseError(f"messages[{index}]: unknown role {role!r}")
    return out


# ---------------------------------------------------------------- fake OpenAI-compatible summariser


class FakeOpenAI:
    """Loopback chat-completions server: the fixed summary, or HTTP 503 with the failure message."""

    def __init__(self, mode, summary, failure):
        self.calls = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, status, body, content_type="application/json"):
                data = body.encode() if isinstance(body, str) else body
                self.send_response(status)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._send(200, json.dumps({"object": "list", "data": [{"id": "fake-summarizer", "object": "model"}]}))

            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                outer.calls += 1
                try:
                    request = json.loads(raw or b"{}")
                except ValueError:
                    request = {}
                if mode == "failing":
                    self._send(503, json.dumps({"error": {"message": failure, "type": "server_error", "code": 503}}))
                    return
                model = request.get("model", "fake-summarizer")
                usage = {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}
                if request.get("stream"):
                    chunks = [
                        {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": model,
                         "choices": [{"index": 0, "delta": {"role": "assistant", "content": summary}, "finish_reason": None}]},
                        {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": model,
                         "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": usage},
                    ]
                    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
                    self._send(200, body, "text/event-stream")
                    return
                self._send(200, json.dumps({
                    "id": "c", "object": "chat.completion", "created": 0, "model": model,
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": summary}, "finish_reason": "stop"}],
                    "usage": usage,
                }))

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


# ---------------------------------------------------------------- peers

PEERS = {}


def peer(name, distribution):
    def register(factory):
        PEERS[name] = (factory, distribution)
        return factory

    return register


def estimate_tokens(openai_messages):
    return sum(len(json.dumps(m)) for m in openai_messages) // 4


@peer("hermes-agent ContextCompressor", "hermes-agent")
def hermes(ctx):
    from agent.context_compressor import ContextCompressor

    def compact(messages, target):
        # The window is the target: Hermes compresses at its threshold share of it and keeps its tail budget.
        compressor = ContextCompressor(
            model="fake-summarizer",
            base_url=ctx["server"].url,
            api_key="sk-offline",
            provider="custom",
            config_context_length=target,
            quiet_mode=True,
        )
        chat = to_openai(messages)
        return from_openai(compressor.compress(chat, current_tokens=estimate_tokens(chat), force=True))

    return compact


@peer("praisonaiagents LLMSummarizeOptimizer", "praisonaiagents")
def praison_llm(ctx):
    import openai
    from praisonaiagents.context.optimizer import LLMSummarizeOptimizer

    client = openai.OpenAI(base_url=ctx["server"].url, api_key="sk-offline")

    def compact(messages, target):
        optimizer = LLMSummarizeOptimizer(llm_client=client, model="fake-summarizer")
        optimized, _result = optimizer.optimize(to_openai(messages), target)
        return from_openai(optimized)

    return compact


@peer("praisonaiagents SmartOptimizer", "praisonaiagents")
def praison_smart(ctx):
    from praisonaiagents.context.optimizer import SmartOptimizer

    def compact(messages, target):
        optimized, _result = SmartOptimizer().optimize(to_openai(messages), target)
        return from_openai(optimized)

    return compact


@peer("praisonaiagents IntelligentConversationCompactor", "praisonaiagents")
def praison_compactor(ctx):
    from praisonaiagents.context.conversation import HybridConversationAnalyzer, IntelligentConversationCompactor

    def compact(messages, target):
        compactor = IntelligentConversationCompactor(analyzer=HybridConversationAnalyzer())
        compacted, _context = compactor.compact_conversation(to_openai(messages), target)
        return from_openai(compacted)

    return compact


@peer("calute CompactionAgent", "calute")
def calute_compaction(ctx):
    import openai
    from calute.agents.compaction_agent import CompactionAgent
    from calute.llms.openai import OpenAILLM

    llm = OpenAILLM(client=openai.OpenAI(base_url=ctx["server"].url, api_key="sk-offline"), model="fake-summarizer")

    def compact(messages, target):
        # CompactionAgent takes no budget: it summarises all but the last 3 non-system messages (its default).
        return from_openai(CompactionAgent(llm).summarize_messages(to_openai(messages)))

    return compact


# ---------------------------------------------------------------- AI SDK <-> LangChain Python messages


def to_langchain(messages):
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

    out = []
    for message in messages:
        role, content = message["role"], message["content"]
        if role == "system":
            out.append(SystemMessage(content=content))
        elif role == "user":
            out.append(HumanMessage(content=_text_of(content)))
        elif role == "assistant":
            if isinstance(content, str):
                out.append(AIMessage(content=content))
                continue
            blocks = []
            calls = []
            for part in content:
                if part["type"] == "text":
                    blocks.append({"type": "text", "text": part["text"]})
                elif part["type"] == "reasoning":
                    blocks.append({"type": "reasoning", "reasoning": part["text"]})
                else:
                    args = part["input"] if isinstance(part["input"], dict) else {"value": part["input"]}
                    calls.append({"name": part["toolName"], "args": args, "id": part["toolCallId"], "type": "tool_call"})
            out.append(AIMessage(content=blocks, tool_calls=calls))
        else:
            for part in content:
                value = part["output"]["value"]
                out.append(ToolMessage(
                    content=value if isinstance(value, str) else js_json(value),
                    tool_call_id=part["toolCallId"],
                    name=part["toolName"],
                    status="error" if part["output"]["type"].startswith("error") else "success",
                ))
    return out


def _lc_text(content, where):
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise ParseError(f"{where}: content of type {type(content).__name__}")
    texts = []
    for block in content:
        if isinstance(block, str):
            texts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            texts.append(block.get("text", ""))
        else:
            raise ParseError(f"{where}: content block {block!r:.80}")
    return "\n".join(texts)


@strict
def from_langchain(messages):
    out = []
    for index, message in enumerate(messages):
        where = f"messages[{index}]"
        kind = getattr(message, "type", None)
        if kind == "system":
            out.append({"role": "system", "content": _lc_text(message.content, where)})
        elif kind == "human":
            out.append({"role": "user", "content": _lc_text(message.content, where)})
        elif kind == "ai":
            parts = []
            content = message.content
            if isinstance(content, str):
                if content:
                    parts.append({"type": "text", "text": content})
            elif isinstance(content, list):
                for block in content:
                    if isinstance(block, str):
                        parts.append({"type": "text", "text": block})
                    elif block.get("type") == "text":
                        parts.append({"type": "text", "text": block.get("text", "")})
                    elif block.get("type") == "reasoning":
                        parts.append({"type": "reasoning", "text": block.get("reasoning", "")})
                    elif block.get("type") == "tool_call":
                        continue  # also listed in tool_calls
                    else:
                        raise ParseError(f"{where}: ai block {block.get('type')!r}")
            else:
                raise ParseError(f"{where}: ai content of type {type(content).__name__}")
            for call in message.tool_calls or []:
                if not isinstance(call.get("id"), str):
                    raise ParseError(f"{where}: tool call without id")
                parts.append({"type": "tool-call", "toolCallId": call["id"], "toolName": call["name"], "input": call["args"]})
            out.append({"role": "assistant", "content": parts})
        elif kind == "tool":
            part = {
                "type": "tool-result",
                "toolCallId": message.tool_call_id,
                "toolName": message.name or "unknown",
                "output": {"type": "error-text" if getattr(message, "status", "") == "error" else "text",
                           "value": _lc_text(message.content, where)},
            }
            if out and out[-1]["role"] == "tool":
                out[-1]["content"].append(part)
            else:
                out.append({"role": "tool", "content": [part]})
        else:
            raise ParseError(f"{where}: message type {kind!r}")
    return out


@peer("langchain (Python) SummarizationMiddleware", "langchain")
def langchain_summarization(ctx):
    from langchain.agents import create_agent
    from langchain.agents.middleware import SummarizationMiddleware
    from langchain_core.language_models.chat_models import BaseChatModel
    from langchain_core.language_models.fake_chat_models import FakeListChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.outputs import ChatGeneration, ChatResult

    class Recorder(BaseChatModel):
        seen: list = []

        @property
        def _llm_type(self):
            return "peers-recording"

        def bind_tools(self, tools, **kwargs):
            return self

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            self.seen.append(list(messages))
            return ChatResult(generations=[ChatGeneration(message=AIMessage(content="ok"))])

    failure = ctx["failure"]
    url = ctx["server"].url

    class Loopback(BaseChatModel):
        """Asks the loopback summariser server (local-model runs)."""

        @property
        def _llm_type(self):
            return "peers-loopback"

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            roles = {"system": "system", "human": "user", "ai": "assistant"}
            body = json.dumps({"model": "local-summarizer", "messages": [
                {"role": roles.get(m.type, "tool"), "content": m.content if isinstance(m.content, str) else json.dumps(m.content)}
                for m in messages
            ]}).encode()
            request = urllib.request.Request(f"{url}/chat/completions", data=body, headers={"content-type": "application/json"})
            with urllib.request.urlopen(request, timeout=600) as response:
                text = json.load(response)["choices"][0]["message"]["content"]
            return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    class Failing(BaseChatModel):
        @property
        def _llm_type(self):
            return "peers-failing"

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            raise RuntimeError(failure)

    def compact(messages, target):
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
        rest = [m for m in messages if m["role"] != "system"]
        recorder = Recorder()
        recorder.seen = []
        summarizer = (
            Loopback() if ctx["mode"] == "local"
            else Failing() if ctx["mode"] == "failing"
            else FakeListChatModel(responses=[ctx["summary"]])
        )
        agent = create_agent(
            model=recorder,
            tools=[],
            system_prompt=system or None,
            middleware=[SummarizationMiddleware(model=summarizer, trigger=("tokens", target), keep=("tokens", target // 2))],
        )
        agent.invoke({"messages": to_langchain(rest)})
        if not recorder.seen:
            raise ParseError("the agent never called its model")
        return from_langchain(recorder.seen[0])

    return compact


def openhands_converters():
    """AI SDK messages -> OpenHands events, and OpenHands LLM messages -> OpenAI chat dicts (then from_openai)."""
    import uuid

    from openhands.sdk.event import ActionEvent, MessageEvent, ObservationEvent, SystemPromptEvent
    from openhands.sdk.llm import Message, MessageToolCall, TextContent
    from openhands.sdk.tool.client_tool import ClientToolObservation

    def to_events(messages):
        events = []
        actions = {}
        for message in messages:
            role, content = message["role"], message["content"]
            if role == "system":
                events.append(SystemPromptEvent(system_prompt=TextContent(text=content), tools=[]))
            elif role == "user":
                events.append(MessageEvent(source="user", llm_message=Message(role="user", content=[TextContent(text=_text_of(content))])))
            elif role == "assistant":
                parts = [{"type": "text", "text": content}] if isinstance(content, str) else content
                text = "\n".join(p["text"] for p in parts if p["type"] == "text")
                reasoning = "\n".join(p["text"] for p in parts if p["type"] == "reasoning") or None
                calls = [p for p in parts if p["type"] == "tool-call"]
                if not calls:
                    events.append(MessageEvent(source="agent", llm_message=Message(
                        role="assistant", content=[TextContent(text=text)], reasoning_content=reasoning)))
                    continue
                response_id = str(uuid.uuid4())
                for index, call in enumerate(calls):
                    arguments = call["input"] if isinstance(call["input"], str) else js_json(call["input"])
                    event = ActionEvent(
                        thought=[TextContent(text=text)] if index == 0 and text else [],
                        reasoning_content=reasoning if index == 0 else None,
                        tool_name=call["toolName"],
                        tool_call_id=call["toolCallId"],
                        tool_call=MessageToolCall(id=call["toolCallId"], name=call["toolName"], arguments=arguments, origin="completion"),
                        llm_response_id=response_id,
                    )
                    actions[call["toolCallId"]] = event.id
                    events.append(event)
            else:
                for part in content:
                    value = part["output"]["value"]
                    events.append(ObservationEvent(
                        tool_name=part["toolName"],
                        tool_call_id=part["toolCallId"],
                        observation=ClientToolObservation.from_text(
                            value if isinstance(value, str) else js_json(value),
                            is_error=part["output"]["type"].startswith("error"),
                        ),
                        action_id=actions.get(part["toolCallId"], "unknown"),
                    ))
        return events

    @strict
    def message_dicts(messages):
        out = []
        for message in messages:
            item = {
                "role": message.role,
                "content": [{"type": "text", "text": c.text} for c in message.content if isinstance(c, TextContent)]
                if message.role == "user"
                else "\n".join(c.text for c in message.content if isinstance(c, TextContent)),
            }
            if message.reasoning_content:
                item["reasoning_content"] = message.reasoning_content
            if message.tool_calls:
                item["tool_calls"] = [
                    {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                    for c in message.tool_calls
                ]
            if message.role == "tool":
                item["tool_call_id"] = message.tool_call_id
                item["name"] = message.name
            out.append(item)
        return out

    return to_events, message_dicts


def openhands_roundtrip(messages):
    import os

    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from openhands.sdk.context.view.view import View
    from openhands.sdk.event import LLMConvertibleEvent

    to_events, message_dicts = openhands_converters()
    view = View.from_events(to_events(messages))
    return from_openai(message_dicts(LLMConvertibleEvent.events_to_messages(list(view.events))))


@peer("openhands-sdk LLMSummarizingCondenser", "openhands-sdk")
def openhands_condenser(ctx):
    import os

    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from openhands.sdk import LLM
    from openhands.sdk.context.condenser import LLMSummarizingCondenser
    from openhands.sdk.context.view.view import View
    from openhands.sdk.event import LLMConvertibleEvent
    from openhands.sdk.event.condenser import Condensation
    from pydantic import SecretStr

    llm = LLM(model="openai/fake-summarizer", base_url=ctx["server"].url, api_key=SecretStr("sk-offline"),
              usage_id="condenser", num_retries=0)

    to_events, message_dicts = openhands_converters()

    def compact(messages, target):
        # max_tokens is the target; the event-count trigger stays at its default.
        condenser = LLMSummarizingCondenser(llm=llm, max_tokens=target)
        events = to_events(messages)
        result = condenser.condense(View.from_events(events), agent_llm=llm)
        if isinstance(result, Condensation):
            events = [*events, result]
        view = View.from_events(events)
        return from_openai(message_dicts(LLMConvertibleEvent.events_to_messages(list(view.events))))

    return compact


@peer("ra-aid state_modifier (anthropic_trim_messages)", "ra-aid")
def raaid_trim(ctx):
    import os

    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from langchain_core.language_models.fake_chat_models import FakeListChatModel
    from ra_aid.anthropic_token_limiter import state_modifier

    model = FakeListChatModel(responses=["ok"])

    def compact(messages, target):
        # RA.Aid trims with no summariser: the first 2 messages and the newest that fit max_input_tokens.
        return from_langchain(state_modifier({"messages": to_langchain(messages)}, model, max_input_tokens=target))

    return compact


# ---------------------------------------------------------------- main


def main():
    real_stdout = sys.stdout
    sys.stdout = sys.stderr
    name = sys.argv[1]
    request = json.load(sys.stdin)
    if name not in PEERS:
        print(json.dumps({"reason": f"no driver for {name}"}), file=real_stdout)
        sys.exit(3)
    factory, distribution = PEERS[name]
    if request["mode"] == "local":
        # The local real model behind the harness's loopback server (local-server.ts).
        server = types.SimpleNamespace(url=request["baseUrl"])
    else:
        server = FakeOpenAI(request["mode"], request["fakeSummary"], request["failureMessage"])
    ctx = {"server": server, "mode": request["mode"], "summary": request["fakeSummary"], "failure": request["failureMessage"]}
    try:
        version = importlib.metadata.version(distribution)
        compact = factory(ctx)
    except Exception as error:  # the peer cannot be set up here: listed with the reason
        print(json.dumps({"reason": f"{type(error).__name__}: {error}"[:500]}), file=real_stdout)
        sys.exit(3)
    rounds = max(1, int(request.get("rounds", 1)))
    results = []
    for item in request["items"]:
        cpu = []
        first = None
        for round_index in range(rounds):
            start = time.process_time()
            try:
                output = compact(json.loads(json.dumps(item["messages"])), item["targetTokens"])
                outcome = {"messages": output}
            except ParseError:
                raise
            except Exception as error:
                outcome = {"error": f"{type(error).__name__}: {error}"[:400]}
            cpu.append((time.process_time() - start) * 1000)
            if round_index == 0:
                first = outcome
        results.append({"id": item["id"], "cpuMs": cpu, **first})
        print(f"{name}: {item['id']} {'error' if 'error' in first else 'ok'}", file=sys.stderr)
    json.dump({"version": version, "results": results}, real_stdout)


def roundtrip():
    """Test entry (bench/peers/src/convert/python.test.ts): each conversation on stdin to a peer format and back."""
    request = json.load(sys.stdin)
    fmt = request["format"]
    if fmt == "openhands":
        convert = openhands_roundtrip
    else:
        forth, back = {"openai": (to_openai, from_openai), "langchain": (to_langchain, from_langchain)}[fmt]

        def convert(messages):
            return back(forth(messages))

    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # peers' import-time prints must not mix with the JSON
    json.dump([convert(messages) for messages in request["conversations"]], real_stdout)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--roundtrip"]:
        roundtrip()
        sys.exit(0)
    try:
        main()
    except ParseError as error:
        traceback.print_exc()
        print(f"driver: output cannot be parsed: {error}", file=sys.stderr)
        sys.exit(4)
