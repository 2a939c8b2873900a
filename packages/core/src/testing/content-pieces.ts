// The content of items a model needs to read, one piece at a time, each in a small conversation that
// carries it. A text piece holds a distinctive marker, so any renderer's request can be searched for
// it; a flag piece is found by rendering the conversation with the flag set and unset. Provider
// plumbing (call ids, signatures, durations, statuses) is not content and is not listed.
import type { ItemInput } from "../model/item.js";

export const CONTENT_PIECE_NAMES = [
  "user.text",
  "user.image-url",
  "user.image-data",
  "user.file-data",
  "user.file-id",
  "user.file-name",
  // Right after a user piece: Anthropic replays signed reasoning only at the start of an assistant turn.
  "assistant.signed-reasoning",
  "assistant.text",
  "assistant.reasoning",
  "assistant.tool-call-name",
  "assistant.tool-call-arguments",
  "tool-result.output",
  "tool-result.is-error",
  "error.text",
  "summary.text",
  "thinking.text",
  "system.text",
  "subagent-spawn.text",
  "subagent-spawn.agent-type",
  "subagent-message.text",
  "subagent-result.text",
  "subagent-result.success",
  "parent-message.text",
  "todo-update.text",
  "user-intervention.text",
  "task-completed.text",
  "task-abandoned.text",
  "task-abandoned.reason",
  "task-terminated.text",
  "task-terminated.terminated-by",
] as const;

export type ContentPieceName = (typeof CONTENT_PIECE_NAMES)[number];

export interface ContentPiece {
  readonly name: ContentPieceName;
  /** The id of the item that holds the piece. */
  readonly itemId: string;
  /** A text piece is searched for by its marker; a flag piece by the difference it makes. */
  readonly kind: "text" | "flag";
  /** The items: the holder, after what it needs (a tool result follows its call). `value` is the marker, or the flag as "true" / "false". */
  items(value: string): ItemInput[];
}

/** A marker the piece's text holds: letters and digits only, so no escaping (JSON, XML, Markdown) and no base64 decoder changes it. */
export function markerOf(name: ContentPieceName): string {
  return `Zq${name.replace(/(^|[.-])(\w)/g, (_match, _separator, letter: string) => letter.toUpperCase())}Mark`;
}

const idOf = (name: ContentPieceName) => name.replace(".", "-");
const callIdOf = (name: ContentPieceName) => `call_${CONTENT_PIECE_NAMES.indexOf(name)}`;

type Holder = (id: string, value: string, name: ContentPieceName) => ItemInput | ItemInput[];

const call = (name: ContentPieceName, toolName = "read_file", args = '{"path":"main.ts"}') => ({ id: callIdOf(name), name: toolName, arguments: args });

const HOLDERS: Record<ContentPieceName, { kind?: "flag"; holder: Holder }> = {
  "user.text": { holder: (id, value) => ({ id, type: "user", text: `Please look at ${value} first.` }) },
  "user.image-url": { holder: (id, value) => ({ id, type: "user", text: "What does this show?", attachments: [{ type: "image", url: `https://example.test/${value}.png` }] }) },
  "user.image-data": { holder: (id, value) => ({ id, type: "user", text: "And this one?", attachments: [{ type: "image", url: `data:image/png;base64,${value}` }] }) },
  "user.file-data": { holder: (id, value) => ({ id, type: "user", text: "Read the report.", attachments: [{ type: "file", data: value, mediaType: "application/pdf", filename: "report.pdf" }] }) },
  "user.file-id": { holder: (id, value) => ({ id, type: "user", text: "Read the stored report.", attachments: [{ type: "file", fileId: `file-${value}`, filename: "stored.pdf" }] }) },
  "user.file-name": {
    holder: (id, value) => ({ id, type: "user", text: "Read the named report.", attachments: [{ type: "file", data: "JVBERi0xLjQK", mediaType: "application/pdf", filename: `${value}.pdf` }] }),
  },
  "assistant.text": { holder: (id, value) => ({ id, type: "assistant", text: `The answer is ${value}.` }) },
  "assistant.signed-reasoning": {
    holder: (id, value) => ({ id, type: "assistant", text: "Checked it.", reasoning: [{ text: `The cause is ${value}.`, signature: "EqQBCkYIBRgCKkDsig" }] }),
  },
  "assistant.reasoning": { holder: (id, value) => ({ id, type: "assistant", text: "Here is the plan.", reasoning: [{ text: `First check ${value}.` }] }) },
  "assistant.tool-call-name": {
    holder: (id, value, name) => [
      { id, type: "assistant", text: "", toolCalls: [call(name, `read_${value}`)] },
      { id: `${id}-result`, type: "tool-result", callId: callIdOf(name), toolName: `read_${value}`, output: "export {}" },
    ],
  },
  "assistant.tool-call-arguments": {
    holder: (id, value, name) => [
      { id, type: "assistant", text: "", toolCalls: [call(name, "read_file", `{"path":"${value}.ts"}`)] },
      { id: `${id}-result`, type: "tool-result", callId: callIdOf(name), toolName: "read_file", output: "export {}" },
    ],
  },
  "tool-result.output": {
    holder: (id, value, name) => [
      { id: `${id}-call`, type: "assistant", text: "", toolCalls: [call(name)] },
      { id, type: "tool-result", callId: callIdOf(name), toolName: "read_file", output: `export const ${value} = 1;` },
    ],
  },
  "tool-result.is-error": {
    kind: "flag",
    holder: (id, value, name) => [
      { id: `${id}-call`, type: "assistant", text: "", toolCalls: [call(name)] },
      { id, type: "tool-result", callId: callIdOf(name), toolName: "read_file", output: "no such file", isError: value === "true" },
    ],
  },
  "error.text": { holder: (id, value) => ({ id, type: "error", text: `The model did not answer (${value}).`, code: "LLM_TIMEOUT" }) },
  "summary.text": { holder: (id, value) => ({ id, type: "summary", text: `Earlier, the user set up ${value}.`, coveredIds: [] }) },
  "thinking.text": { holder: (id, value) => ({ id, type: "thinking", text: `The trace points at ${value}.` }) },
  "system.text": { holder: (id, value) => ({ id, type: "system", text: `Project ${value} uses pnpm.` }) },
  "subagent-spawn.text": { holder: (id, value) => ({ id, type: "subagent-spawn", subagentId: "agent_1", agentType: "researcher", text: `{"task":"${value}"}` }) },
  "subagent-spawn.agent-type": { holder: (id, value) => ({ id, type: "subagent-spawn", subagentId: "agent_1", agentType: value, text: '{"task":"search"}' }) },
  "subagent-message.text": { holder: (id, value) => ({ id, type: "subagent-message", subagentId: "agent_1", text: `Also look at ${value}.` }) },
  "subagent-result.text": { holder: (id, value) => ({ id, type: "subagent-result", subagentId: "agent_1", text: `Found ${value}.` }) },
  "subagent-result.success": { kind: "flag", holder: (id, value) => ({ id, type: "subagent-result", subagentId: "agent_1", success: value === "true", text: "Done searching." }) },
  "parent-message.text": { holder: (id, value) => ({ id, type: "parent-message", parentAgentId: "agent_0", text: `Research ${value}.` }) },
  "todo-update.text": { holder: (id, value) => ({ id, type: "todo-update", text: `{"todos":["${value}"]}` }) },
  "user-intervention.text": { holder: (id, value) => ({ id, type: "user-intervention", text: `Stop, use ${value} instead.` }) },
  "task-completed.text": { holder: (id, value) => ({ id, type: "task-completed", text: `{"result":"${value}"}` }) },
  "task-abandoned.text": { holder: (id, value) => ({ id, type: "task-abandoned", reason: "no access", text: `{"partialResult":"${value}"}` }) },
  "task-abandoned.reason": { holder: (id, value) => ({ id, type: "task-abandoned", reason: `blocked by ${value}`, text: '{"partialResult":"half"}' }) },
  "task-terminated.text": { holder: (id, value) => ({ id, type: "task-terminated", terminatedBy: "user", text: `Stopped at ${value}.` }) },
  "task-terminated.terminated-by": { holder: (id, value) => ({ id, type: "task-terminated", terminatedBy: value, text: "Stopped." }) },
};

export const CONTENT_PIECES: ReadonlyArray<ContentPiece> = CONTENT_PIECE_NAMES.map((name) => {
  const { kind = "text", holder } = HOLDERS[name];
  const itemId = idOf(name);
  return {
    name,
    itemId,
    kind,
    items: (value: string) => {
      const made = holder(itemId, value, name);
      return Array.isArray(made) ? made : [made];
    },
  };
});

/**
 * Around each piece: a first turn, a user message the piece answers or adds to, and a user message
 * after it, so the history is one any provider takes and an assistant piece starts its turn.
 */
export function conversationAround(items: ReadonlyArray<ItemInput>): ItemInput[] {
  return [
    { id: "opening", type: "user", text: "Let us fix the failing build." },
    { id: "opening-reply", type: "assistant", text: "Looking at it now." },
    { id: "go-ahead", type: "user", text: "Go ahead." },
    ...items,
    { id: "closing", type: "user", text: "What next?" },
  ];
}
