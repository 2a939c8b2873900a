// The provider-level prompt a language model middleware sees, named through `ai`'s own middleware type
// so that this package needs no dependency on @ai-sdk/provider.
import type { LanguageModelMiddleware } from "ai";

type TransformParams = NonNullable<LanguageModelMiddleware["transformParams"]>;

/** The call options a middleware's transformParams receives (LanguageModelV4CallOptions). */
export type ProviderCallOptions = Parameters<TransformParams>[0]["params"];

/** The provider-level prompt (LanguageModelV4Prompt): system messages first, content always in parts. */
export type ProviderPrompt = ProviderCallOptions["prompt"];

export type ProviderMessage = ProviderPrompt[number];

/** The wrapped model a middleware is given. */
export type ProviderModel = Parameters<TransformParams>[0]["model"];

/**
 * Which language model specification the prompt follows: "v4" (ai 7) wraps file data in
 * `{ type: "data" | "url" | … }`, "v3" (ai 6) gives the bytes, base64 text or URL itself.
 */
export type ProviderPromptVersion = "v3" | "v4";
