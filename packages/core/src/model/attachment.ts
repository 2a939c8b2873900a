// Non-text content of a user message: images and files, by URL (data: URLs included) or provider file id.
import { z } from "zod";

export const attachmentSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("image"),
    /** An https: or data: URL. */
    url: z.string().min(1),
    detail: z.enum(["auto", "low", "high"]).optional(),
  }),
  z
    .object({
      type: z.literal("file"),
      /** Base64 data, with or without a data: URL prefix. */
      data: z.string().min(1).optional(),
      /** A provider file id, instead of data. */
      fileId: z.string().min(1).optional(),
      filename: z.string().optional(),
      /** e.g. "application/pdf"; used to build the data: URL when data has no prefix. */
      mediaType: z.string().optional(),
    })
    .refine((file) => file.data !== undefined || file.fileId !== undefined, "a file attachment needs data or a fileId"),
]);

export type Attachment = z.output<typeof attachmentSchema>;
