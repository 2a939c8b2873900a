// Maps a renderer's name to the request type it produces. A renderer package registers its own entry
// by declaration merging, so build() is typed by the renderer it asks for:
//
//   declare module "@ctxpipe/core" {
//     interface RendererOutputMap { markdown: MarkdownTranscript }
//   }
import type { OpenAIChatRequest } from "../renderers/openai-chat/openai-chat-request.js";

export interface RendererOutputMap {
  openai: OpenAIChatRequest;
}

export type RendererName = keyof RendererOutputMap & string;
