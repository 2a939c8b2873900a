// `pnpm --filter @ctxpipe-example/giant-tool-output start [directory]`: one agent turn whose tool
// returns a 2 MB log, within a 16,000-token budget. Prints what each request cost, what was cut, and
// what the model read back.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BuildResult } from "@ctxpipe/core";
import { ChatLoop } from "@ctxpipe/loop";
import { JsonlStore } from "@ctxpipe/store";
import { readLogTool } from "./read-log-tool.js";
import { scriptedAgent } from "./scripted-agent.js";
import { serviceLog } from "./service-log.js";

export const MAX_TOKENS = 16_000;
export const CONVERSATION_ID = "incident-2026-03-02";

const directory = process.argv[2] ?? mkdtempSync(join(tmpdir(), "ctxpipe-giant-tool-output-"));
mkdirSync(directory, { recursive: true });
const logPath = join(directory, "service.log");
const log = serviceLog();
writeFileSync(logPath, log);
const figure = (value: number) => value.toLocaleString("en-US");
console.log(`Log: ${logPath} (${figure(log.length)} characters)`);

const store = new JsonlStore({ directory: join(directory, "conversations") });
// Message ids and times that are the same every run, so the figures below are too.
let nextId = 0;
const loop = new ChatLoop({
  model: scriptedAgent(),
  store,
  tools: [readLogTool(logPath)],
  buildOptions: { maxTokens: MAX_TOKENS },
  newId: () => `m${++nextId}`,
  now: () => new Date(Date.UTC(2026, 2, 2, 15, 0, nextId)),
});
const builds: BuildResult<unknown>[] = [];
const result = await loop.send({
  conversationId: CONVERSATION_ID,
  userInput: "Why did the service stop last night? The log is in service.log.",
  onEvent: (event) => {
    if (event.type === "built") builds.push(event.result);
    if (event.type === "tool-ran") console.log(`  [${event.call.name}(${event.call.arguments}) → ${figure(event.content.length)} characters]`);
  },
});

builds.forEach((build, index) => {
  const tools = ((build.request as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((tool) => tool.function.name);
  console.log(`request ${index + 1}: ${figure(build.tokenCount)} of ${figure(MAX_TOKENS)} tokens, ${build.includedIds.length} messages kept, ${build.excludedIds.length} left out; tools: ${tools.join(", ")}`);
  for (const entry of build.report.entries) {
    if (entry.decision === "truncated" && entry.cut !== undefined) {
      console.log(`  cut ${entry.id}: ${figure(entry.cut.tokens)} tokens (${figure(entry.cut.chars)} characters, ${figure(entry.cut.from)} to ${figure(entry.cut.to)}) kept whole as ${entry.cut.handle}`);
    }
  }
});
const cutResult = (builds[1]?.request as { messages: Array<{ role: string; content: unknown }> } | undefined)?.messages.find((message) => message.role === "tool");
const marker = typeof cutResult?.content === "string" ? /\[… [^\]]*\]/.exec(cutResult.content)?.[0] : undefined;
if (marker !== undefined) console.log(`marker: ${marker}`);
const systemPrompt = (builds[1]?.request as { messages: Array<{ role: string; content: unknown }> } | undefined)?.messages.find((message) => message.role === "system");
const notice = typeof systemPrompt?.content === "string" ? /Context note: .*/.exec(systemPrompt.content)?.[0] : undefined;
if (notice !== undefined) console.log(`notice: ${notice}`);
const offloaded = await store.listOffloaded(CONVERSATION_ID);
for (const info of offloaded) console.log(`stored: ${info.handle} (${figure(info.chars)} characters, of ${info.itemId})`);
console.log(`${result.status} in ${result.turns} model calls.`);
console.log(`< ${result.text}`);
await store.close();
