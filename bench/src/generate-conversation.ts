// A deterministic, realistic agent conversation in the seeds' stored message shape: prose, Chinese,
// code, JSON tool calls and 1–20 KB tool results, the workload DESIGN.md's figures were measured on.
const PROSE = "The build fails on CI but not locally, so the difference must be in the environment or the lockfile. ";
const CHINESE = "构建在持续集成上失败，但在本地成功，所以差异一定在环境或锁文件里。";
const CODE = "export function add(left: number, right: number): number {\n  return left + right;\n}\n";
const LOG = "2026-03-02T09:00:08.000Z ERROR ERR_PNPM_OUTDATED_LOCKFILE Cannot install with frozen-lockfile\n";

/** A small linear congruential generator: the same seed always gives the same conversation. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function repeat(unit: string, bytes: number): string {
  return unit.repeat(Math.max(1, Math.ceil(bytes / unit.length))).slice(0, bytes);
}

export interface StoredMessage {
  id: string;
  role: "user" | "assistant" | "tool";
  content: string | null;
  createdAt: string;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  toolName?: string;
  duration?: number;
}

/** `count` messages: user turns, assistant replies, tool calls and their results. */
export function generateConversation(count: number, seed = 42): StoredMessage[] {
  const next = random(seed);
  const messages: StoredMessage[] = [];
  const start = Date.UTC(2026, 0, 1);
  const at = () => new Date(start + messages.length * 1000).toISOString();
  while (messages.length < count) {
    const turn = messages.length;
    messages.push({ id: `m${turn}`, role: "user", content: next() < 0.3 ? repeat(CHINESE, 200) : repeat(PROSE, 300), createdAt: at() });
    if (messages.length >= count) break;
    if (next() < 0.6) {
      const callId = `call_${turn}`;
      const args = JSON.stringify({ path: `src/module-${turn}.ts`, reason: repeat(PROSE, 80) });
      messages.push({ id: `m${messages.length}`, role: "assistant", content: null, tool_calls: [{ id: callId, type: "function", function: { name: "read_file", arguments: args } }], createdAt: at() });
      if (messages.length >= count) break;
      const size = 1000 + Math.floor(next() * 19_000);
      const body = next() < 0.5 ? repeat(CODE, size) : next() < 0.5 ? repeat(LOG, size) : JSON.stringify({ lines: repeat(PROSE, size) });
      messages.push({ id: `m${messages.length}`, role: "tool", content: body, tool_call_id: callId, toolName: "read_file", duration: 5, createdAt: at() });
      if (messages.length >= count) break;
    }
    messages.push({ id: `m${messages.length}`, role: "assistant", content: repeat(PROSE, 400), createdAt: at() });
  }
  return messages.slice(0, count);
}
