// A long, deterministic agent conversation: each turn the user asks for something, the assistant calls
// a tool, the tool answers with a large result, and the assistant replies. Same turn count, same items,
// so every configuration is measured on exactly the same history.
import type { ItemInput, ToolDefinitionInput } from "@ctxpipe/core";

export const SYSTEM_PROMPT = "You are a coding agent working in the ledger service repository. Use the tools; keep the public API unchanged.";

export const TOOLS: ToolDefinitionInput[] = [
  { name: "read_file", description: "Reads a file of the repository.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  { name: "run_tests", description: "Runs the test suite of a package.", parameters: { type: "object", properties: { package: { type: "string" } }, required: ["package"] } },
  { name: "search_code", description: "Searches the repository for a text.", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } },
  { name: "update_plan", description: "Replaces the agent's plan.", parameters: { type: "object", properties: { steps: { type: "array", items: { type: "string" } } }, required: ["steps"] } },
];

const VOCABULARY = [
  "ledger", "account", "balance", "entry", "posting", "journal", "currency", "amount", "rounding", "invoice",
  "export", "import", "schema", "migration", "index", "query", "transaction", "commit", "rollback", "retry",
  "timeout", "queue", "worker", "handler", "request", "response", "status", "error", "warning", "value",
];
const FILES = ["src/ledger.ts", "src/posting.ts", "src/currency.ts", "src/export/csv.ts", "src/db/migrate.ts", "src/queue/worker.ts"];
const PACKAGES = ["ledger", "export", "db", "queue"];

/** A small seeded generator (mulberry32), so the "random" text is the same on every run. */
function randomOf(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<Value>(random: () => number, values: ReadonlyArray<Value>): Value {
  return values[Math.floor(random() * values.length)]!;
}

/** A tool output of about `lines` lines, like a file listing or a test log. */
function toolOutput(random: () => number, tool: string, lines: number): string {
  const out: string[] = [];
  for (let line = 1; line <= lines; line++) {
    const words = Array.from({ length: 6 + Math.floor(random() * 6) }, () => pick(random, VOCABULARY)).join(" ");
    out.push(tool === "run_tests" ? `  ✓ ${words} (${Math.floor(random() * 90) + 1} ms)` : `${String(line).padStart(4)}  ${words}`);
  }
  return out.join("\n");
}

/** Turn n (1-based) of the conversation: user message, tool call, tool result, answer. */
export function agentTurn(turn: number): ItemInput[] {
  const random = randomOf(turn * 7919);
  const id = String(turn).padStart(2, "0");
  // Every seventh turn states a constraint the agent must remember; searches are exploratory.
  const tool = turn % 7 === 0 ? "update_plan" : pick(random, ["read_file", "run_tests", "search_code", "read_file"]);
  const argument =
    tool === "read_file"
      ? { path: pick(random, FILES) }
      : tool === "run_tests"
        ? { package: pick(random, PACKAGES) }
        : tool === "search_code"
          ? { query: pick(random, VOCABULARY) }
          : { steps: [`keep rounding half-even (turn ${turn})`, "export amounts in minor units"] };
  // A turn group's priority is its highest item's: a search turn is -1 throughout, one constraint message is enough.
  const priority = tool === "update_plan" ? 2 : tool === "search_code" ? -1 : 0;
  const rest = { priority: Math.min(priority, 0) };
  const ask =
    tool === "update_plan"
      ? `Turn ${turn}: constraint — amounts must stay in minor units and rounding must stay half-even. Update the plan.`
      : `Turn ${turn}: please look at the ${pick(random, VOCABULARY)} ${pick(random, VOCABULARY)} handling and tell me what you find.`;
  return [
    { id: `u${id}`, type: "user", text: ask, metadata: { priority } },
    { id: `a${id}`, type: "assistant", text: "", metadata: rest, toolCalls: [{ id: `call_${id}`, name: tool, arguments: JSON.stringify(argument) }] },
    { id: `t${id}`, type: "tool-result", callId: `call_${id}`, toolName: tool, metadata: rest, output: tool === "update_plan" ? "Plan updated." : toolOutput(random, tool, 40) },
    { id: `r${id}`, type: "assistant", metadata: rest, text: `Turn ${turn}: done. The ${pick(random, VOCABULARY)} ${pick(random, VOCABULARY)} code looks consistent; nothing else to change.` },
  ];
}

/**
 * The conversation as the model is about to answer turn `turns`: every earlier turn complete, then the
 * newest user message, its tool call and the tool's result (the current loop).
 */
export function agentConversation(turns: number): ItemInput[] {
  const items: ItemInput[] = [];
  for (let turn = 1; turn < turns; turn++) items.push(...agentTurn(turn));
  items.push(...agentTurn(turns).slice(0, 3));
  return items;
}
