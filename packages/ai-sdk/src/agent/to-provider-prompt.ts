// ModelMessage[] → the provider-level prompt, the way `ai` converts a step's messages before it calls
// the model (convertToLanguageModelPrompt), minus the downloads: content always in parts, image parts
// as file parts, file data wrapped for v4, approval requests left out (a provider never sees them),
// consecutive tool messages merged. Used by the middleware on what the pipeline rendered.
import type { ModelMessage } from "ai";
import type { ProviderMessage, ProviderPrompt, ProviderPromptVersion } from "./provider-prompt.js";

type Part = Record<string, unknown>;

const FILE_DATA_TYPES = new Set(["data", "url", "reference", "text"]);

function isFileData(value: unknown): value is { type: string } {
  return typeof value === "object" && value !== null && !(value instanceof URL) && !ArrayBuffer.isView(value) && FILE_DATA_TYPES.has((value as Part).type as string);
}

/** A part's data in the version's shape: v4 wraps it ({ type: "data" | "url" | "reference" }), v3 does not. */
function fileData(data: unknown, version: ProviderPromptVersion): unknown {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
  if (version === "v3") {
    if (!isFileData(bytes)) return bytes;
    const wrapped = bytes as Part;
    if (wrapped.type === "data") return wrapped.data;
    if (wrapped.type === "url") return wrapped.url;
    return bytes;
  }
  if (isFileData(bytes)) return bytes;
  if (bytes instanceof URL) return { type: "url", url: bytes };
  if (typeof bytes === "string" || ArrayBuffer.isView(bytes)) return { type: "data", data: bytes };
  // A provider reference ({ openai: "file-…" }).
  return { type: "reference", reference: bytes };
}

/** Leaves out keys whose value is undefined, so a converted part equals the one `ai` would send. */
function defined(part: Part): Part {
  const out: Part = {};
  for (const [key, value] of Object.entries(part)) if (value !== undefined) out[key] = value;
  return out;
}

function filePart(part: Part, version: ProviderPromptVersion): Part {
  if (part.type === "image") {
    return defined({ type: "file", data: fileData(part.image, version), mediaType: part.mediaType ?? "image", providerOptions: part.providerOptions });
  }
  return defined({ ...part, data: fileData(part.data, version) });
}

function toolResultOutput(output: unknown, version: ProviderPromptVersion): unknown {
  const value = output as Part | undefined;
  if (value?.type !== "content" || !Array.isArray(value.value)) return output;
  return { ...value, value: value.value.map((item: Part) => (item.type === "file" ? filePart(item, version) : item)) };
}

function contentParts(content: ModelMessage["content"]): Part[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : (content as Part[]);
}

function convertMessage(message: ModelMessage, version: ProviderPromptVersion): ProviderMessage | undefined {
  const providerOptions = message.providerOptions === undefined ? {} : { providerOptions: message.providerOptions };
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content, ...providerOptions };
    case "user": {
      const content = contentParts(message.content).map((part) => (part.type === "text" ? part : filePart(part, version)));
      return { role: "user", content, ...providerOptions } as unknown as ProviderMessage;
    }
    case "assistant": {
      const content = contentParts(message.content)
        .filter((part) => part.type !== "tool-approval-request")
        .map((part) => {
          if (part.type === "file" || part.type === "reasoning-file") return filePart(part, version);
          if (part.type === "tool-result") return { ...part, output: toolResultOutput(part.output, version) };
          return part;
        });
      return { role: "assistant", content, ...providerOptions } as unknown as ProviderMessage;
    }
    case "tool": {
      // Approval answers of calls the application runs are settled before the model is called.
      const content = (message.content as Part[])
        .filter((part) => part.type !== "tool-approval-response" || part.providerExecuted === true)
        .map((part) => (part.type === "tool-result" ? { ...part, output: toolResultOutput(part.output, version) } : part));
      return { role: "tool", content, ...providerOptions } as unknown as ProviderMessage;
    }
    default:
      return undefined;
  }
}

/**
 * The provider-level prompt for a list of messages. Consecutive tool messages become one, as `ai`
 * sends them; a tool message left with no part is dropped.
 */
export function toProviderPrompt(messages: ReadonlyArray<ModelMessage>, version: ProviderPromptVersion = "v4"): ProviderPrompt {
  const prompt: ProviderMessage[] = [];
  for (const message of messages) {
    const converted = convertMessage(message, version);
    if (converted === undefined) continue;
    const last = prompt.at(-1);
    if (converted.role === "tool" && last?.role === "tool") {
      prompt[prompt.length - 1] = { ...last, content: [...last.content, ...converted.content] };
      continue;
    }
    prompt.push(converted);
  }
  return prompt.filter((message) => message.role !== "tool" || message.content.length > 0);
}
