// Tool-call arguments as JSON text of an object (OAI-016), which Anthropic's `input` and Gemini's
// `args` require: empty text becomes "{}", anything else that is not an object is kept whole under
// "_raw" so the model still sees what it sent.

/** The normalized arguments, or undefined when they already are a JSON object. */
export function normalizeArguments(text: string): string | undefined {
  if (text.trim() === "") return "{}";
  const first = text.trimStart()[0];
  if (first === "{") {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return undefined;
    } catch {
      // Truncated or broken JSON: kept as raw text below.
    }
  }
  return JSON.stringify({ _raw: text });
}
