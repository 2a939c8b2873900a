// Non-text content of a user message: images and files, by URL (data: URLs included) or provider file id.
import { z } from "zod";

export const attachmentSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("image"),
    /** An https: or data: URL. */
    url: z.string().min(1),
    detail: z.enum(["auto", "low", "high"]).optional(),
  }),
  z.object({
    type: z.literal("file"),
    /** Base64 data (with or without a data: URL prefix) or a provider file id. */
    data: z.string().optional(),
    fileId: z.string().optional(),
    filename: z.string().optional(),
    mediaType: z.string().optional(),
  }),
]);

export type Attachment = z.output<typeof attachmentSchema>;
