// A tool returns a huge log; the build cuts it (keeping the turn), the loop keeps the whole log in the
// store before the model sees the marker, offers retrieve_context, and the model reads back exactly
// the part that was cut, in this loop and in a fresh one on the same directory.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { contentHandle, type OpenAIChatRequest } from "@ctxpipe/core";
import { type ConversationStore, JsonlStore } from "@ctxpipe/store";
import { describe, expect, test } from "vitest";
import { counterIds, fixedClock, systemText, tempStore, textOf } from "../__fixtures__/loop-fixtures.js";
import { type ScriptedAnswer, scriptedModel } from "../model/scripted-model.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { ChatLoop } from "./chat-loop.js";

const BUDGET = 16_000;

/** About 330 kB of numbered lines, one of them the error the model is after, deep in the cut middle. */
function hugeLog(): string {
  const lines: string[] = [];
  for (let line = 1; line <= 6000; line++) {
    lines.push(line === 3100 ? `line ${String(line).padStart(6, "0")}: ERROR disk full on /var/data (wrote 0 of 4096 bytes)` : `line ${String(line).padStart(6, "0")}: worker ${line % 7} processed batch ${line * 3} in ${(line * 37) % 900} ms`);
  }
  return `${lines.join("\n")}\n`;
}

const LOG = hugeLog();
const readLog: LoopTool = { name: "read_log", description: "Reads the service log.", run: () => LOG };

type Request = OpenAIChatRequest & { tools?: ReadonlyArray<{ function: { name: string } }> };
const toolNames = (request: Request) => (request.tools ?? []).map((tool) => tool.function.name);
const toolMessages = (request: Request) => request.messages.filter((message) => message.role === "tool").map(textOf);

/** The retrieve_context request a marker or a retrieve_context reply asks the model to make. */
function requestIn(text: string): { handle: string; from: number; to?: number } | undefined {
  const match = /call retrieve_context with (\{[^}]*\})/.exec(text);
  return match === null ? undefined : JSON.parse(match[1] as string);
}

/** The part of the original a retrieve_context reply carries (after its first line). */
const partOf = (reply: string) => reply.slice(reply.indexOf("\n") + 1);

function readBackScript(): ScriptedAnswer[] | Array<ScriptedAnswer | ((request: Request) => ScriptedAnswer)> {
  return [
    { toolCalls: [{ name: "read_log" }] },
    // The marker in the cut result names the handle and the cut range: read it back.
    (request) => ({ toolCalls: [{ name: "retrieve_context", arguments: requestIn(toolMessages(request).at(-1) ?? "") ?? {} }] }),
    // The reply says how to get the next part of the range: follow it once.
    (request) => ({ toolCalls: [{ name: "retrieve_context", arguments: requestIn((toolMessages(request).at(-1) ?? "").split("\n")[0] as string) ?? {} }] }),
    { text: "The disk is full on /var/data." },
  ];
}

describe("ChatLoop: a giant tool output is cut, kept and read back", () => {
  test("the turn is kept, the whole log is stored before the model call, and retrieve_context returns exactly the cut range", async () => {
    const { store, directory } = tempStore();
    const handle = contentHandle(LOG);
    const storedWhenCalled: boolean[] = [];
    const script = readBackScript();
    const model = scriptedModel(
      script.map((entry) =>
        typeof entry === "function"
          ? async (request: Request) => {
              storedWhenCalled.push((await new JsonlStore({ directory }).loadOffloaded("c", handle))?.text === LOG);
              return entry(request);
            }
          : entry,
      ) as never,
      { model: "gpt-4o-mini" },
    );
    const loop = new ChatLoop({ model, store, tools: [readLog], newId: counterIds("m"), now: fixedClock(), buildOptions: { maxTokens: BUDGET } });
    const builds: Array<{ tokens: number; included: ReadonlyArray<string> }> = [];
    const offloadedEvents: unknown[] = [];
    const result = await loop.send({
      conversationId: "c",
      userInput: "Why did the service stop?",
      onEvent: (event) => {
        if (event.type === "built") builds.push({ tokens: event.result.tokenCount, included: event.result.includedIds });
        if (event.type === "offloaded") offloadedEvents.push(event.offloaded);
      },
    });
    expect(result.status).toBe("completed");
    expect(result.text).toBe("The disk is full on /var/data.");
    // Kept before the model saw a marker naming it.
    expect(storedWhenCalled).toStrictEqual([true, true]);

    const requests = model.calls.map((call) => call.request as Request);
    // Offered once something is offloaded, and only then.
    expect(requests.map(toolNames)).toStrictEqual([["read_log"], ["read_log", "retrieve_context"], ["read_log", "retrieve_context"], ["read_log", "retrieve_context"]]);
    // Every build fits, and keeps the whole turn: the question, the call and its (cut) result.
    const [userId, callId, resultId] = result.persisted.map((message) => message.id);
    for (const build of builds) expect(build.tokens).toBeLessThanOrEqual(BUDGET);
    for (const build of builds.slice(1)) expect(build.included).toEqual(expect.arrayContaining([userId, callId, resultId]));

    const cutResult = toolMessages(requests[1]!)[0]!;
    expect(cutResult.length).toBeLessThan(LOG.length / 4);
    expect(cutResult).not.toContain("ERROR disk full");
    const marker = requestIn(cutResult)!;
    expect(marker.handle).toBe(handle);
    expect(await store.loadOffloaded("c", handle)).toStrictEqual({ handle, itemId: resultId, text: LOG, createdAt: expect.any(String) });
    // Told once, when first stored, without the text.
    expect(offloadedEvents).toStrictEqual([[{ handle, itemId: resultId, chars: LOG.length, createdAt: expect.any(String) }]]);

    // The model's two retrieve_context calls read the cut range from its start, in order, exactly.
    const replies = result.persisted.filter((message) => message.role === "tool" && message.toolName === "retrieve_context").map((message) => message.content as string);
    expect(replies).toHaveLength(2);
    const first = partOf(replies[0]!);
    const second = partOf(replies[1]!);
    expect(first.length).toBeGreaterThan(1000);
    expect(first).toBe(LOG.slice(marker.from, marker.from + first.length));
    expect(second).toBe(LOG.slice(marker.from + first.length, marker.from + first.length + second.length));
    expect(replies[0]!.split("\n")[0]).toBe(
      `[retrieve_context ${handle}: characters ${group(marker.from)} to ${group(marker.from + first.length)} of ${group(LOG.length)} (${group(first.length)} characters). ${group(marker.to! - marker.from - first.length)} more characters of the range asked for remain (at most ${group(first.length)} per call): call retrieve_context with ${JSON.stringify({ handle, from: marker.from + first.length, to: marker.to })} for the next part.]`,
    );
    expect(replies.every((reply) => !reply.startsWith("Error"))).toBe(true);
  });

  test("a fresh loop and store on the same directory (nothing cached) offer retrieve_context from its first turn and reads the handle back", async () => {
    const { store, directory } = tempStore();
    await new ChatLoop({ model: scriptedModel(readBackScript() as never, { model: "gpt-4o-mini" }), store, tools: [readLog], buildOptions: { maxTokens: BUDGET } }).send({ conversationId: "c", userInput: "Why did the service stop?" });
    await store.close();

    const handle = contentHandle(LOG);
    const model = scriptedModel([{ toolCalls: [{ name: "retrieve_context", arguments: { handle, from: 1000, to: 1200 } }] }, { text: "Read." }], { model: "gpt-4o-mini" });
    const fresh = new ChatLoop({ model, store: new JsonlStore({ directory }), tools: [readLog], buildOptions: { maxTokens: BUDGET } });
    const result = await fresh.send({ conversationId: "c", userInput: "Show me characters 1000 to 1200 of that log." });
    expect(result.status).toBe("completed");
    expect(toolNames(model.calls[0]!.request as Request)).toStrictEqual(["read_log", "retrieve_context"]);
    const reply = result.persisted.find((message) => message.toolName === "retrieve_context")!.content as string;
    expect(partOf(reply)).toBe(LOG.slice(1000, 1200));
  });

  test("texts a send stored are not handed to the store again by the next sends of the conversation, while a new store object is", async () => {
    const { directory } = tempStore();
    const handedOver: string[][] = [];
    const counting = (store: JsonlStore): ConversationStore => ({
      append: (id, messages) => store.append(id, messages),
      appendSummaries: (id, records) => store.appendSummaries(id, records),
      load: (id) => store.load(id),
      list: () => store.list(),
      close: () => store.close(),
      loadOffloaded: (id, handle) => store.loadOffloaded(id, handle),
      listOffloaded: (id) => store.listOffloaded(id),
      appendOffloaded: (id, records) => {
        handedOver.push(records.map((record) => record.handle));
        return store.appendOffloaded(id, records);
      },
    });
    const store = counting(new JsonlStore({ directory }));
    const loop = new ChatLoop({ model: scriptedModel([{ toolCalls: [{ name: "read_log" }] }, { text: "Read." }], { model: "gpt-4o-mini", repeatLast: true }), store, tools: [readLog], buildOptions: { maxTokens: BUDGET } });
    await loop.send({ conversationId: "c", userInput: "Read the log." });
    await loop.send({ conversationId: "c", userInput: "Anything else?" });
    await loop.send({ conversationId: "c", userInput: "And now?" });
    expect(handedOver).toStrictEqual([[contentHandle(LOG)]]);
    // Another store object (another process) knows nothing this one stored: it hands the text over once, and the store keeps it once.
    const other = counting(new JsonlStore({ directory }));
    await new ChatLoop({ model: scriptedModel([{ text: "Still read." }], { model: "gpt-4o-mini" }), store: other, tools: [readLog], buildOptions: { maxTokens: BUDGET } }).send({ conversationId: "c", userInput: "Again?" });
    expect(handedOver).toStrictEqual([[contentHandle(LOG)], [contentHandle(LOG)]]);
    expect((await other.listOffloaded!("c")).map((info) => info.handle)).toStrictEqual([contentHandle(LOG)]);
  });

  test("a new process reads the handle back from the JSON-lines log", { timeout: 60_000 }, async () => {
    const { store, directory } = tempStore();
    await new ChatLoop({ model: scriptedModel(readBackScript() as never, { model: "gpt-4o-mini" }), store, tools: [readLog], buildOptions: { maxTokens: BUDGET } }).send({ conversationId: "c", userInput: "Why did the service stop?" });
    await store.close();
    const child = fileURLToPath(new URL("../__fixtures__/read-back-child.ts", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--conditions=@ctxpipe/source", child, directory, "c", contentHandle(LOG), "150000", "150300"], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
    });
    const { status, reply, offered } = JSON.parse(stdout) as { status: string; reply: string; offered: string[] };
    expect({ status, offered }).toStrictEqual({ status: "completed", offered: ["retrieve_context"] });
    expect(partOf(reply)).toBe(LOG.slice(150_000, 150_300));
  });

  test("without a conversation id the whole text is kept for the call, and read back within it", async () => {
    const model = scriptedModel(readBackScript().slice(0, 2).concat([{ text: "Done." }]) as never, { model: "gpt-4o-mini" });
    const result = await new ChatLoop({ model, tools: [readLog], buildOptions: { maxTokens: BUDGET } }).send({ userInput: "Why did the service stop?" });
    expect(result.status).toBe("completed");
    const reply = result.persisted.find((message) => message.toolName === "retrieve_context")!.content as string;
    const marker = requestIn(toolMessages(model.calls[1]!.request as Request)[0]!)!;
    expect(partOf(reply)).toBe(LOG.slice(marker.from, marker.from + partOf(reply).length));
  });

  test.for([
    { name: "by name", toolPolicy: { deniedTools: ["retrieve_context"] } },
    { name: "by category", toolPolicy: { deniedCategories: ["context"] } },
  ])("a tool policy that denies retrieve_context ($name) keeps it out; the log is still cut and kept", async ({ toolPolicy }) => {
    const { store } = tempStore();
    const model = scriptedModel([{ toolCalls: [{ name: "read_log" }] }, { text: "Cut." }], { model: "gpt-4o-mini" });
    await new ChatLoop({ model, store, tools: [readLog], buildOptions: { maxTokens: BUDGET } }).send({ conversationId: "c", userInput: "Read the log", toolPolicy });
    expect(model.calls.map((call) => toolNames(call.request as Request))).toStrictEqual([["read_log"], ["read_log"]]);
    expect((await store.listOffloaded("c")).map((info) => info.handle)).toStrictEqual([contentHandle(LOG)]);
  });

  test.for([
    { name: "on by default", compression: undefined, notice: true },
    { name: "on with compression options of your own", compression: { strategies: ["truncate-tool-results" as const] }, notice: true },
    { name: "off with notice: false", compression: { strategies: ["truncate-tool-results" as const], notice: false }, notice: false },
  ])("the notice to the model is $name", async ({ compression, notice }) => {
    const model = scriptedModel([{ toolCalls: [{ name: "read_log" }] }, { text: "Cut." }], { model: "gpt-4o-mini" });
    await new ChatLoop({ model, tools: [readLog], buildOptions: { maxTokens: BUDGET }, ...(compression === undefined ? {} : { compression }) }).send({ userInput: "Read the log" });
    const [before, after] = model.calls.map((call) => systemText(call.request as OpenAIChatRequest));
    const text = "Context note: to fit the context window, long tool results were cut to their start and end. Read cut or cleared text back with retrieve_context and the handle its marker names.";
    expect(before).not.toContain("Context note");
    expect(after!.includes(text)).toBe(notice);
  });

  test("an allow list that does not name retrieve_context still lets it be offered (it reads the conversation's own text)", async () => {
    const { store } = tempStore();
    const model = scriptedModel([{ toolCalls: [{ name: "read_log" }] }, { text: "Cut." }], { model: "gpt-4o-mini" });
    await new ChatLoop({ model, store, tools: [readLog], buildOptions: { maxTokens: BUDGET } }).send({ conversationId: "c", userInput: "Read the log", toolPolicy: { allowedTools: ["read_log"] } });
    expect(toolNames(model.calls[1]!.request as Request)).toStrictEqual(["read_log", "retrieve_context"]);
  });
});

function group(value: number): string {
  return value.toLocaleString("en-US");
}
