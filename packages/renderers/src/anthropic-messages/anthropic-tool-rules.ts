// Anthropic Messages rules on tool_use and tool_result blocks (reference/providers.md §3: ANT-006,
// 007, 008, 009, 010, 026, 017, 019, 020). Pairing is checked on turns, consecutive same-role
// messages merged, because that is what the API checks.
import type { Rule } from "@ctxpipe/core";
import { atBlock, type BlockView, describe, isRecord, messageViewsOf, type TurnView, turnViewsOf } from "./anthropic-message-view.js";

const ID = /^[a-zA-Z0-9_-]+$/;
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const blocksOfType = (turn: TurnView | undefined, type: string): BlockView[] => turn?.blocks.filter((block) => block.type === type) ?? [];
const stringField = (block: BlockView, field: string): string | undefined => (typeof block.fields[field] === "string" ? (block.fields[field] as string) : undefined);

/** Where a turn made of several messages is, for violation messages. */
function turnName(turn: TurnView): string {
  const first = turn.messages[0]!.index;
  const last = turn.messages.at(-1)!.index;
  return first === last ? `messages[${first}]` : `messages[${first}..${last}] (merged into one ${turn.role} turn)`;
}

export const toolUsesAnswered: Rule<unknown> = {
  id: "ANT-006",
  level: "error",
  requires: "every tool_use has a tool_result with its id in the next (merged) user turn",
  providerError:
    "messages.N: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_…. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
  check(request, report) {
    const turns = turnViewsOf(request);
    turns.forEach((turn, position) => {
      if (turn.role !== "assistant") return;
      const next = turns[position + 1];
      const answered = new Set(next?.role === "user" ? blocksOfType(next, "tool_result").map((block) => block.fields.tool_use_id) : []);
      const after = next === undefined ? "the request ends after it" : next.role === "user" ? `${turnName(next)} does not answer it` : `it is followed by ${turnName(next)}, not a user turn`;
      for (const block of blocksOfType(turn, "tool_use")) {
        const id = stringField(block, "id");
        if (id !== undefined && !answered.has(id)) report({ message: `tool_use ${JSON.stringify(id)} has no tool_result in the next user turn: ${after}`, ...atBlock(block, ".id") });
      }
    });
  },
};

export const toolResultsMatchPreviousTurn: Rule<unknown> = {
  id: "ANT-007",
  level: "error",
  requires: "every tool_result answers a tool_use of the immediately preceding (merged) assistant turn",
  providerError:
    "messages.N.content.M: unexpected `tool_use_id` found in `tool_result` blocks: toolu_…. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
  check(request, report) {
    const turns = turnViewsOf(request);
    turns.forEach((turn, position) => {
      if (turn.role !== "user") return;
      const previous = turns[position - 1];
      const offered = new Set(previous?.role === "assistant" ? blocksOfType(previous, "tool_use").map((block) => block.fields.id) : []);
      for (const block of blocksOfType(turn, "tool_result")) {
        const id = stringField(block, "tool_use_id");
        if (id === undefined || offered.has(id)) continue;
        const where = previous?.role === "assistant" ? `${turnName(previous)} has no tool_use with that id` : "no assistant turn comes right before it";
        report({ message: `tool_result for ${JSON.stringify(id)} answers nothing: ${where}`, ...atBlock(block, ".tool_use_id") });
      }
    });
  },
};

export const toolResultsFirst: Rule<unknown> = {
  id: "ANT-008",
  level: "error",
  requires: "in a user turn, the tool_result blocks come first, before any text or other content",
  providerError:
    "messages.27: Did not find 1 tool_result block(s) at the beginning of this message. Messages following tool_use blocks must begin with a matching number of tool_result blocks.",
  check(request, report) {
    for (const turn of turnViewsOf(request)) {
      if (turn.role !== "user") continue;
      let other: BlockView | undefined;
      for (const block of turn.blocks) {
        if (block.type !== "tool_result") other ??= block;
        else if (other !== undefined) report({ message: `tool_result comes after ${other.path} in ${turnName(turn)}; tool_result blocks must come first`, ...atBlock(block) });
      }
    }
  },
};

export const toolUseIdsUnique: Rule<unknown> = {
  id: "ANT-009",
  level: "error",
  requires: "tool_use ids are unique across the request, and each tool_use gets a single tool_result",
  providerError: "messages.43.content.2: `tool_use` ids must be unique",
  check(request, report) {
    const firstUse = new Map<string, BlockView>();
    for (const message of messageViewsOf(request) ?? []) {
      for (const block of message.blocks) {
        const id = block.type === "tool_use" ? stringField(block, "id") : undefined;
        if (id === undefined) continue;
        const first = firstUse.get(id);
        if (first !== undefined) report({ message: `tool_use id ${JSON.stringify(id)} is already used at ${first.path}`, ...atBlock(block, ".id") });
        else firstUse.set(id, block);
      }
    }
    for (const turn of turnViewsOf(request)) {
      const firstResult = new Map<string, BlockView>();
      for (const block of blocksOfType(turn, "tool_result")) {
        const id = stringField(block, "tool_use_id");
        if (id === undefined) continue;
        const first = firstResult.get(id);
        if (first !== undefined) report({ message: `each tool_use must have a single result: ${JSON.stringify(id)} is already answered at ${first.path}`, ...atBlock(block, ".tool_use_id") });
        else firstResult.set(id, block);
      }
    }
  },
};

export const toolIdsMatchPattern: Rule<unknown> = {
  id: "ANT-010",
  level: "error",
  requires: "tool_use.id and tool_result.tool_use_id match ^[a-zA-Z0-9_-]+$",
  providerError: "messages.1.content.1.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      for (const block of message.blocks) {
        const field = block.type === "tool_use" ? "id" : block.type === "tool_result" ? "tool_use_id" : undefined;
        if (field === undefined) continue;
        const id = block.fields[field];
        if (typeof id !== "string" || !ID.test(id)) report({ message: `${block.type}.${field} ${describe(id)} does not match ^[a-zA-Z0-9_-]+$`, ...atBlock(block, `.${field}`) });
      }
    }
  },
};

export const toolNamesMatchPattern: Rule<unknown> = {
  id: "ANT-026",
  level: "strict",
  requires: "tool names, in tools and in tool_use blocks, match ^[a-zA-Z0-9_-]{1,64}$",
  check(request, report) {
    if (isRecord(request) && Array.isArray(request.tools)) {
      (request.tools as unknown[]).forEach((tool, position) => {
        if (isRecord(tool) && (typeof tool.name !== "string" || !NAME.test(tool.name))) report({ message: `tool name ${describe(tool.name)} does not match ^[a-zA-Z0-9_-]{1,64}$`, path: `tools[${position}].name` });
      });
    }
    for (const message of messageViewsOf(request) ?? []) {
      for (const block of message.blocks) {
        if (block.type !== "tool_use") continue;
        const name = block.fields.name;
        if (typeof name !== "string" || !NAME.test(name)) report({ message: `tool_use.name ${describe(name)} does not match ^[a-zA-Z0-9_-]{1,64}$`, ...atBlock(block, ".name") });
      }
    }
  },
};

export const toolResultsHaveContent: Rule<unknown> = {
  id: "ANT-017",
  level: "strict",
  requires: "every tool_result has non-empty content (Bedrock rejects empty error results)",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      for (const block of message.blocks) {
        if (block.type !== "tool_result") continue;
        const content = block.fields.content;
        if (content === undefined) report({ message: "the tool_result has no content", ...atBlock(block) });
        else if (content === "" || (Array.isArray(content) && content.length === 0)) report({ message: "the tool_result content is empty", ...atBlock(block, ".content") });
      }
    }
  },
};

export const toolBlocksInTheirRole: Rule<unknown> = {
  id: "ANT-019",
  level: "error",
  // Thinking blocks outside assistant messages are ANT-024's, so one mistake is reported once.
  requires: "tool_use (and thinking) blocks appear only in assistant messages, tool_result blocks only in user messages",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      for (const block of message.blocks) {
        if (block.type === "tool_use" && message.role !== "assistant") report({ message: `a tool_use block in a ${message.role ?? "role-less"} message`, ...atBlock(block) });
        if (block.type === "tool_result" && message.role !== "user") report({ message: `a tool_result block in a ${message.role ?? "role-less"} message`, ...atBlock(block) });
      }
    }
  },
};

export const toolInputIsObject: Rule<unknown> = {
  id: "ANT-020",
  level: "error",
  requires: "tool_use.input is a JSON object",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      for (const block of message.blocks) {
        if (block.type === "tool_use" && !isRecord(block.fields.input)) report({ message: `tool_use.input is ${describe(block.fields.input)}, not an object`, ...atBlock(block, ".input") });
      }
    }
  },
};
