// A clear-tool-results placeholder filled in, as three replaceAll calls in a row would ({tokens}, then
// {tool}, then {handle}), by joining the template's pieces: a long history clears thousands of results
// in one build, and three passes over the template per result cost more than the rest of the scan.

/** The placeholder text of one cleared result. */
export type PlaceholderFiller = (tokens: number, tool: string, handle: string) => string;

/** What the three replaceAll calls give: the definition the pieces must match. */
export function fillByReplacing(template: string, tokens: number, tool: string, handle: string): string {
  return template.replaceAll("{tokens}", String(tokens)).replaceAll("{tool}", tool).replaceAll("{handle}", handle);
}

// Tool names a filler keeps the pieces of; past that a name is filled by replacing (a history has a
// handful of tools, and the memory must stay bounded).
const MAX_TOOLS = 64;

/**
 * A filler for `template`. The digits of a count are in none of the names, so no later name is found
 * across them: each part of the template between "{tokens}" is filled on its own. A tool name can
 * make a "{handle}" with the text around it, so the parts are split on "{handle}" after the name is
 * in, once per name. A value holding "$" (a replacement pattern to replaceAll) or a count that is not
 * a whole number is filled by replacing.
 */
export function placeholderFiller(template: string): PlaceholderFiller {
  const parts = template.split("{tokens}");
  // Per tool name: each part's pieces around "{handle}", the name put in.
  const byTool = new Map<string, string[][]>();
  const piecesOf = (tool: string): string[][] | undefined => {
    let pieces = byTool.get(tool);
    if (pieces === undefined) {
      if (byTool.size >= MAX_TOOLS) return undefined;
      pieces = parts.map((part) => part.replaceAll("{tool}", tool).split("{handle}"));
      byTool.set(tool, pieces);
    }
    return pieces;
  };
  return (tokens, tool, handle) => {
    const pieces = Number.isSafeInteger(tokens) && tokens >= 0 && !tool.includes("$") && !handle.includes("$") ? piecesOf(tool) : undefined;
    if (pieces === undefined) return fillByReplacing(template, tokens, tool, handle);
    const count = String(tokens);
    let text = "";
    for (let part = 0; part < pieces.length; part++) {
      if (part > 0) text += count;
      const around = pieces[part]!;
      text += around[0]!;
      for (let piece = 1; piece < around.length; piece++) text += handle + around[piece]!;
    }
    return text;
  };
}
