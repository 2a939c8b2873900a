// Metadata every item carries, whatever its type. Fields an importer does not recognise are kept in
// `extra` so that nothing a user stored is lost on the way through ctxpipe.
import { z } from "zod";

export const itemMetadataSchema = z.object({
  /** The session mode the item was written in (chat, agent or run, as in the system prompt's modes). */
  mode: z.string().optional(),
  runId: z.string().optional(),
  agentId: z.string().optional(),
  /** Higher is more important; compression strategies drop lower priorities first. */
  priority: z.number().refine(Number.isFinite, "must be a finite number").optional(),
  /** `false` keeps the item in the log but out of every context built from it. */
  includeInContext: z.boolean().optional(),
  /** `true`: no compression strategy and no budget fit drops, clears, cuts or summarizes the item (see isPinned). */
  pinned: z.boolean().optional(),
  /** Source fields that have no place in the model, kept verbatim. */
  extra: z.record(z.string(), z.unknown()).optional(),
});

export type ItemMetadata = z.output<typeof itemMetadataSchema>;
