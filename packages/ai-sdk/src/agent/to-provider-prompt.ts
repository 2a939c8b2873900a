// ModelMessage[] → the provider-level prompt, the way `ai` converts a step's messages before it calls
// the model (convertToLanguageModelPrompt), minus the downloads: content always in parts, image parts
// as file parts, file data wrapped for v4, approval requests left out (a provider never sees them),
// consecutive tool messages merged. Used by the middleware on what the pipeline rendered.
import type { ModelMessage } from "ai";
import type { ProviderMessage, ProviderPrompt, ProviderPromptVersion } from "./provider-prompt.js";

type Part = Record<string, unknown>;

const FILE_DATA_TYPES = new Set(["data", "url", "reference", "text"]);

function isFileData(value: unknown): value is Part & { type: string } {
  return typeof value === "object" && value !== null && !(value instanceof URL) && !ArrayBuffer.isView(value) && FILE_DATA_TYPES.has((value as Part).type as string);
}

interface ProviderFileData {
  /** v4's tagged form. */
  readonly data: Part;
  /** The media type a data: URL names, which wins over the part's. */
  readonly mediaType?: string;
}

/** A data: URL as inline base64 data and its media type; any other URL stays a URL. */
function fromUrl(url: URL, originalUrl?: string): ProviderFileData {
  if (url.protocol !== "data:") return { data: { type: "url", url, ...(originalUrl === undefined ? {} : { originalUrl }) } };
  const [header = "", base64 = ""] = url.href.split(",");
  const mediaType = header.split(";")[0]?.split(":")[1];
  return { data: { type: "data", data: base64 }, ...(mediaType === undefined || mediaType === "" ? {} : { mediaType }) };
}

/** Whatever a ModelMessage file part holds, in v4's tagged form, as `ai` converts it. */
function taggedData(data: unknown): ProviderFileData {
  if (isFileData(data)) {
    if (data.type === "data" && typeof data.data === "string" && data.data.startsWith("data:")) return fromUrl(new URL(data.data));
    if (data.type === "url" && data.url instanceof URL) return fromUrl(data.url, data.originalUrl as string | undefined);
    return { data };
  }
  if (data instanceof URL) return fromUrl(data);
  if (typeof data === "string") {
    // A URL in text (https:, data:), else base64 (its alphabet has no ":", so it never parses as one).
    if (URL.canParse(data)) {
      const url = new URL(data);
      return fromUrl(url, url.href === data ? undefined : data);
    }
    return { data: { type: "data", data } };
  }
  if (data instanceof ArrayBuffer) return { data: { type: "data", data: new Uint8Array(data) } };
  if (ArrayBuffer.isView(data)) return { data: { type: "data", data } };
  // A provider reference ({ openai: "file-…" }).
  return { data: { type: "reference", reference: data } };
}

/** The part's data in the version's shape: v4 tags it, v3 takes the bytes, base64 text or URL itself. */
function fileData(data: unknown, version: ProviderPromptVersion): ProviderFileData {
  const tagged = taggedData(data);
  if (version === "v4") return tagged;
  const { type } = tagged.data;
  if (type === "data") return { ...tagged, data: tagged.data.data as Part };
  if (type === "url") return { ...tagged, data: tagged.data.url as Part };
  return tagged;
}

/** Leaves out keys whose value is undefined, so a converted part equals the one `ai` would send. */
function defined(part: Part): Part {
  const out: Part = {};
  for (const [key, value] of Object.entries(part)) if (value !== undefined) out[key] = value;
  return out;
}

function filePart(part: Part, version: ProviderPromptVersion): Part {
  const image = part.type === "image";
  const { data, mediaType } = fileData(image ? part.image : part.data, version);
  const { image: _image, ...rest } = part;
  return defined({ ...rest, type: "file", data, mediaType: mediaType ?? part.mediaType ?? (image ? "image" : undefined) });
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
