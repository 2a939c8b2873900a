// The conversation so far, in the stored shape: `turns` earlier agent turns (a request, a tool call, its
// result, an answer), as an application would have persisted them. Deterministic, so every run is the same.
import type { ConversationStore, StoredMessage } from "@ctxpipe/store";

const TOPICS = ["posting", "balance", "currency", "export", "invoice", "journal", "rounding", "migration"];

export function earlierTurns(turns: number): StoredMessage[] {
  const messages: StoredMessage[] = [];
  const at = (minute: number) => new Date(Date.UTC(2026, 2, 2, 9, minute)).toISOString();
  for (let turn = 1; turn <= turns; turn++) {
    const id = String(turn).padStart(2, "0");
    const topic = TOPICS[turn % TOPICS.length]!;
    const file = `src/${topic}.ts`;
    const lines = Array.from({ length: 8 }, (_, line) => `${String(line + 1).padStart(3)}  export const ${topic}Rule${line} = "${topic} rule ${line} of turn ${turn}: keep amounts in minor units";`);
    messages.push(
      { id: `u${id}`, role: "user", content: `Turn ${turn}: look at the ${topic} handling in ${file} and tell me whether amounts stay in minor units.`, createdAt: at(turn * 2) },
      {
        id: `a${id}`,
        role: "assistant",
        content: null,
        tool_calls: [{ id: `call_h${id}`, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: file }) } }],
        createdAt: at(turn * 2),
      },
      { id: `t${id}`, role: "tool", tool_call_id: `call_h${id}`, toolName: "read_file", content: lines.join("\n"), createdAt: at(turn * 2 + 1) },
      { id: `r${id}`, role: "assistant", content:
          `Turn ${turn}: ${file} keeps amounts in minor units. I checked every ${topic} rule against the ledger's invariants: ` +
          `amounts are integers of the currency's minor unit, conversions go through the exchange table, and rounding happens once, at the edge, half to even. ` +
          `Decision ${turn}: leave ${file} as it is; the ${topic} tests cover the negative and the zero cases.`, createdAt: at(turn * 2 + 1) },
    );
  }
  return messages;
}

export async function storeEarlierTurns(store: ConversationStore, conversationId: string, turns: number): Promise<void> {
  await store.append(conversationId, earlierTurns(turns));
}
