// A tool call's arguments as Anthropic's tool_use.input, which must be an object (ANT-020). ctxpipe
// keeps arguments as the JSON text the model produced; text that is not a JSON object is kept, not lost.

export function anthropicToolInput(argumentsText: string): Record<string, unknown> {
  if (argumentsText.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Truncated or otherwise broken JSON: kept verbatim below.
  }
  return { _raw: argumentsText };
}
