// Anthropic Messages rules on replayed thinking blocks (reference/providers.md §3: ANT-014, 022, 023,
// 024). Placement is checked on turns, consecutive assistant messages merged, as the API sees them.
import type { Rule } from "@ctxpipe/core";
import { atBlock, describe, messageViewsOf, THINKING_TYPES, turnViewsOf } from "./anthropic-message-view.js";

export const thinkingOpensTurn: Rule<unknown> = {
  id: "ANT-014",
  level: "error",
  requires: "an assistant turn that contains thinking or redacted_thinking blocks starts with one",
  providerError: "If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found text.",
  check(request, report) {
    for (const turn of turnViewsOf(request)) {
      const first = turn.blocks[0];
      if (turn.role !== "assistant" || first === undefined || THINKING_TYPES.has(first.type)) continue;
      const thinking = turn.blocks.find((block) => THINKING_TYPES.has(block.type));
      if (thinking !== undefined) report({ message: `the assistant turn has a ${thinking.type} block at ${thinking.path} but starts with ${first.type ?? "a block without a type"}`, ...atBlock(first) });
    }
  },
};

export const thinkingSigned: Rule<unknown> = {
  id: "ANT-022",
  level: "error",
  requires: "every thinking block is passed back with its thinking text and signature, every redacted_thinking block with its data",
  providerError: "thinking.signature: Field required",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      for (const block of message.blocks) {
        const { fields } = block;
        if (block.type === "thinking") {
          if (typeof fields.signature !== "string" || fields.signature === "") report({ message: `thinking.signature is ${describe(fields.signature)}; replay the block with its signature`, ...atBlock(block, ".signature") });
          if (typeof fields.thinking !== "string") report({ message: `thinking.thinking is ${describe(fields.thinking)}, not a string`, ...atBlock(block, ".thinking") });
        } else if (block.type === "redacted_thinking" && (typeof fields.data !== "string" || fields.data === "")) {
          report({ message: `redacted_thinking.data is ${describe(fields.data)}; replay the block with its data`, ...atBlock(block, ".data") });
        }
      }
    }
  },
};

export const thinkingNotLast: Rule<unknown> = {
  id: "ANT-023",
  level: "error",
  requires: "an assistant turn does not end with a thinking or redacted_thinking block",
  providerError: "The final block in an assistant message cannot be `thinking`.",
  check(request, report) {
    for (const turn of turnViewsOf(request)) {
      const last = turn.blocks.at(-1);
      if (turn.role === "assistant" && last !== undefined && THINKING_TYPES.has(last.type)) report({ message: `the assistant turn ends with a ${last.type} block`, ...atBlock(last) });
    }
  },
};

export const thinkingOnlyInAssistant: Rule<unknown> = {
  id: "ANT-024",
  level: "error",
  requires: "thinking and redacted_thinking blocks appear only in assistant messages",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      for (const block of message.blocks) {
        if (THINKING_TYPES.has(block.type) && message.role !== "assistant") report({ message: `a ${block.type} block in a ${message.role ?? "role-less"} message`, ...atBlock(block) });
      }
    }
  },
};
