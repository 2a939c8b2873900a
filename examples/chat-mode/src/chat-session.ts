// One process's part of the example: open the store, make the loop, send the user's messages one by
// one and print what happened. Everything it knows about earlier processes comes from the log.
import { ChatLoop, type LoopEvent, scriptedModel } from "@ctxpipe/loop";
import { JsonlStore } from "@ctxpipe/store";
import { localSummarizer } from "./local-summarizer.js";
import { modelFromEnv } from "./model-from-env.js";
import { scriptedAssistant } from "./scripted-assistant.js";
import { weatherTool } from "./weather-tool.js";

export const CONVERSATION_ID = "hike-planning";
export const MAX_TOKENS = 1_400;

/** Each entry is a user message; "!fail" makes the next model call fail, as an overloaded endpoint would. */
export const PHASES: Record<string, ReadonlyArray<string>> = {
  first: ["My name is Ada and I am planning a hike.", "What is the weather in Chamonix?", "And the weather in Zermatt?"],
  second: ["What is my name?", "What is the weather in Grindelwald?", "!fail", "What is the weather in Wengen?", "continue", "What is my name?"],
};

export async function runChatSession(phase: string, directory: string, print: (line: string) => void): Promise<void> {
  const store = new JsonlStore({ directory });
  const control = { failNext: false };
  const loop = new ChatLoop({
    model: modelFromEnv(scriptedModel([scriptedAssistant(control)], { repeatLast: true })),
    store,
    tools: [weatherTool],
    buildOptions: { maxTokens: MAX_TOKENS },
    // A real endpoint may serve a model the registry does not know (a local one): count it with o200k_base.
    ...(process.env.OPENAI_BASE_URL === undefined ? {} : { tokenCounting: { fallback: "o200k_base" as const } }),
    compression: { strategies: ["clear-tool-results", "summarize", "sliding-window"], summarizer: localSummarizer, minRecentMessages: 4 },
    // One try per call, so the failure shows; the user's "continue" is the retry.
    maxRetries: 0,
  });
  const loaded = await store.load(CONVERSATION_ID);
  print(`[${phase} process ${process.pid}] ${loaded.messages.length} messages and ${loaded.summaries.length} summary records in the log`);

  for (const input of PHASES[phase] ?? []) {
    if (input === "!fail") {
      control.failNext = true;
      continue;
    }
    print(`> ${input}`);
    const onEvent = (event: LoopEvent) => {
      if (event.type === "built") {
        const compression = event.result.report.compression;
        const note = compression?.triggered === true ? `, compression saved ${compression.usageBefore - compression.usageAfter} tokens` : "";
        print(`  (request ${event.turn + 1}: ${event.result.tokenCount} of ${MAX_TOKENS} tokens${note})`);
      }
      if (event.type === "summarized") print(`  (summary record persisted: covers ${event.records.map((record) => record.coveredIds.length).join(", ")} messages)`);
      if (event.type === "tool-ran") print(`  [${event.call.name}(${event.call.arguments}) → ${event.content.length} characters]`);
    };
    const result = await loop.send({ conversationId: CONVERSATION_ID, userInput: input, mode: "chat", onEvent });
    if (result.status === "failed") print(`  model call failed (${result.error?.code}: ${result.error?.message}); the failure is in the log, say "continue"`);
    else print(`< ${result.text}`);
  }
  await store.close();
}
