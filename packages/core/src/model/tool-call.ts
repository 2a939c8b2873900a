// A call the assistant made to a tool or a skill. Arguments stay the JSON text the model produced:
// re-serialising would alter what the user stored, and broken JSON must survive to be repaired.
import { z } from "zod";

export const toolCallSchema = z.object({
  /**
   * Unique within the request once repaired. May be "": some local and OpenAI-compatible servers
   * return calls without an id, and the app stores them so; repair-orphans pairs such calls with
   * their results by position and gives each pair an id.
   */
  id: z.string(),
  name: z.string().min(1, "a tool call needs a non-empty name"),
  /** JSON text of the arguments, exactly as the model produced it. */
  arguments: z.string(),
  /** Skills are rendered as tools for chat providers and as `<skill_call>` in XML. */
  kind: z.enum(["tool", "skill"]).default("tool"),
  /** The call status a memory chunk records, e.g. "pending" or "completed". */
  status: z.string().optional(),
  /** Provider signature that must accompany the replayed call (Gemini 3's thoughtSignature). */
  signature: z.string().optional(),
});

export type ToolCall = z.output<typeof toolCallSchema>;
export type ToolCallInput = z.input<typeof toolCallSchema>;
