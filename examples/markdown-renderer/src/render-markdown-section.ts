// One item as one section of the transcript: a heading that says who spoke or what happened, then
// the text. Prose stays prose; JSON, tool output and anything meant to be read verbatim is fenced.
// Attachment data has no place in a transcript: a placeholder names it.
import { type Attachment, type Item, SYSTEM_PROMPT_ID } from "@ctxpipe/core";
import { fence } from "./fence.js";

function looksLikeJson(text: string): boolean {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

// Lines of prose that Markdown would read as structure that can end a section or start one: an ATX
// heading, a setext underline (which turns the line above into a heading), a thematic break (the
// section separator is one) and a code fence (an unclosed one would swallow the sections after it).
const BLOCK_MARKER = /^( {0,3})(#|=+[ \t]*$|-+[ \t]*$|([-*_])(?:[ \t]*\3){2,}[ \t]*$|`{3,}|~{3,})/;

/** Prose as written, except that a line starting with a block marker has it backslash-escaped. */
function prose(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(BLOCK_MARKER, (_marker, indent: string, rest: string) => `${indent}\\${rest}`))
    .join("\n");
}

/** Prose neutralised, JSON fenced so it keeps its layout. */
function body(text: string): string {
  return looksLikeJson(text) ? fence(text, "json") : prose(text);
}

function section(heading: string, ...parts: ReadonlyArray<string>): string {
  // A heading is one line: a line break in a value (a reason, an agent type) would start new blocks.
  const line = heading.replace(/\s*[\r\n]+\s*/g, " ");
  return [`### ${line}`, ...parts.filter((part) => part.trim().length > 0)].join("\n\n");
}

/** Inline code that the name cannot break out of. */
function code(name: string): string {
  const ticks = "`".repeat(Math.max(1, ...(name.match(/`+/g) ?? []).map((run) => run.length + 1)));
  const pad = name.startsWith("`") || name.endsWith("`") ? " " : "";
  return `${ticks}${pad}${name}${pad}${ticks}`;
}

/** What a section shows besides the item's own content. */
export interface MarkdownSectionOptions {
  /** An assistant's reasoning, before its text (redacted reasoning, opaque data, never). Default false. */
  readonly includeReasoning?: boolean;
}

function attachmentLine(attachment: Attachment): string {
  // A transcript carries no payload: data is named by a placeholder, which the plugin reports.
  if (attachment.type === "image") return attachment.url.startsWith("data:") ? "*(image attachment)*" : `![attachment](${attachment.url})`;
  const details = [attachment.filename, attachment.fileId === undefined ? undefined : `file id ${code(attachment.fileId)}`].filter((detail) => detail !== undefined);
  return `*(file attachment${details.length === 0 ? "" : `: ${details.join(", ")}`})*`;
}

/** Reasoning a section shows: readable, not redacted. */
export function shownReasoning(item: Item, options: MarkdownSectionOptions = {}): ReadonlyArray<string> {
  if (item.type !== "assistant" || options.includeReasoning !== true) return [];
  return (item.reasoning ?? []).filter((entry) => entry.redacted !== true && entry.text.trim().length > 0).map((entry) => entry.text);
}

export function renderMarkdownSection(item: Item, options: MarkdownSectionOptions = {}): string {
  switch (item.type) {
    case "system":
      return section(item.id === SYSTEM_PROMPT_ID ? "System prompt" : "System note", prose(item.text));
    case "user":
      return section("User", body(item.text), ...(item.attachments ?? []).map(attachmentLine));
    case "assistant": {
      const reasoning = shownReasoning(item, options).map((text) => `**Reasoning**\n\n${prose(text)}`);
      const calls = item.toolCalls.map((call) => `**${call.kind === "skill" ? "Skill" : "Tool"} call** ${code(call.name)} (${code(call.id)})\n\n${fence(call.arguments, "json")}`);
      return section(item.clarification === true ? "Assistant asks" : "Assistant", ...reasoning, body(item.text), ...calls);
    }
    case "tool-result": {
      const what = `${item.kind === "skill" ? "skill" : "tool"} result ${code(item.toolName ?? "unknown")} (${code(item.callId)})`;
      return section(item.isError ? `Failed ${what}` : what.charAt(0).toUpperCase() + what.slice(1), fence(item.output));
    }
    case "error":
      return section(`Error${item.code === undefined ? "" : ` ${code(item.code)}`}`, prose(item.text));
    case "summary":
      return section("Summary of earlier conversation", prose(item.text));
    case "subagent-spawn":
      return section(`Spawned subagent ${code(item.subagentId)}${item.agentType === undefined ? "" : ` (${item.agentType})`}`, body(item.text));
    case "subagent-message":
      return section(`To subagent ${code(item.subagentId)}`, body(item.text));
    case "subagent-result":
      return section(`${item.success ? "Result" : "Failure"} from subagent ${code(item.subagentId)}`, body(item.text));
    case "parent-message":
      return section(`From parent agent ${code(item.parentAgentId)}`, body(item.text));
    case "todo-update":
      return section("Todo list", body(item.text));
    case "thinking":
      return section("Thinking", prose(item.text));
    case "user-intervention":
      return section("User interjects", prose(item.text));
    case "task-completed":
      return section("Task completed", body(item.text));
    case "task-abandoned":
      return section(`Task abandoned${item.reason === undefined ? "" : `: ${item.reason}`}`, body(item.text));
    case "task-terminated":
      return section(`Task terminated${item.terminatedBy === undefined ? "" : ` by ${item.terminatedBy}`}`, body(item.text));
  }
}
