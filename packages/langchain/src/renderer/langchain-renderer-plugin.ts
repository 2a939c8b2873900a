// Renderer for LangChain chat models, registered under the renderer name "langchain": the items as a
// BaseMessage[] a model's invoke() takes, the system prompt first. It also checks every request it
// renders against langChainRules.
import { checkRules, type Item, type PipelinePlugin, type PluginHost, parsePluginOptions, STAGE, type Tokenizer } from "@ctxpipe/core";
import { type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { z } from "zod";
import { langChainExtraOf } from "../messages/langchain-extra.js";
import { countLangChainFixedTokens, countLangChainMessageTokens } from "./count-langchain-tokens.js";
import type { LangChainRequest } from "./langchain-request.js";
import { langChainRules } from "./langchain-rules.js";
import { type RenderedItem, renderLangChainMessage } from "./render-langchain-message.js";
import "./renderer-output-map.js";

const PLUGIN_NAME = "LangChainRendererPlugin";

/** Why an ai message is sent without its invalid_tool_calls, naming them. */
function invalidCallsNote(calls: ReadonlyArray<unknown>): string {
  const named = calls.map((call) => {
    const { id, name } = (call ?? {}) as { id?: unknown; name?: unknown };
    return `${typeof id === "string" ? id : "(no id)"} (${typeof name === "string" ? name : "no name"})`;
  });
  return `invalid_tool_calls not sent (their arguments did not parse, and no result answers them): ${named.join(", ")}`;
}

const langChainRendererPluginOptionsSchema = z.strictObject({
  /**
   * A system message stored after the conversation started: "system" (default) adds its text to the
   * leading SystemMessage, since Anthropic and Gemini chat models refuse a system message anywhere
   * else; "user" sends it where it was, as a HumanMessage labelled "[System message]".
   */
  laterSystemMessages: z.enum(["system", "user"]).default("system"),
  stage: z.number().default(STAGE.DEFAULT),
});

export type LangChainRendererPluginOptions = z.input<typeof langChainRendererPluginOptionsSchema>;

export class LangChainRendererPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof langChainRendererPluginOptionsSchema>;
  // A message is a pure function of its item, and its count of the message and the tokenizer: both
  // are cached, so an agent loop's rebuild renders and counts only the new items. The messages are
  // shared between builds; do not change one you were handed.
  readonly #messages = new WeakMap<Item, RenderedItem>();
  readonly #tokens = new WeakMap<Tokenizer, WeakMap<BaseMessage, number>>();

  constructor(options: LangChainRendererPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, langChainRendererPluginOptionsSchema, options);
  }

  #render(item: Item): RenderedItem {
    let rendered = this.#messages.get(item);
    if (rendered === undefined) {
      rendered = renderLangChainMessage(item);
      this.#messages.set(item, rendered);
    }
    return rendered;
  }

  #count(message: BaseMessage, tokenizer: Tokenizer): number {
    let cache = this.#tokens.get(tokenizer);
    if (cache === undefined) {
      cache = new WeakMap();
      this.#tokens.set(tokenizer, cache);
    }
    let tokens = cache.get(message);
    if (tokens === undefined) {
      tokens = countLangChainMessageTokens(message, tokenizer);
      cache.set(message, tokens);
    }
    return tokens;
  }

  apply(pipeline: PluginHost): void {
    const tap = { name: PLUGIN_NAME, stage: this.#options.stage };
    pipeline.hooks.render.for("langchain").tap(tap, (items, context) => {
      const messages: BaseMessage[] = [];
      const messageIndexById = new Map<string, number>();
      // Texts of system items after the first message, merged into the leading system message.
      const laterSystem: Array<{ item: Item; text: string }> = [];
      for (const item of items) {
        const rendered = this.#render(item);
        if ("reason" in rendered) {
          context.report.drop(item, rendered.reason);
          continue;
        }
        if (rendered.repaired !== undefined) context.report.repair(item, rendered.repaired);
        const invalid = langChainExtraOf(item)?.invalid_tool_calls;
        if (invalid !== undefined && invalid.length > 0) context.report.repair(item, invalidCallsNote(invalid));
        let message = rendered.message;
        if (item.type === "system" && messages.length > 0) {
          if (this.#options.laterSystemMessages === "system") {
            laterSystem.push({ item, text: message.text });
            continue;
          }
          message = new HumanMessage({ content: `[System message]\n${message.text}`, id: item.id });
        }
        messageIndexById.set(item.id, messages.length);
        messages.push(message);
      }
      if (laterSystem.length > 0) {
        const leading = messages[0]?.type === "system" ? messages[0] : undefined;
        // The item the merged message stands for: the leading one, or the first later one when there was none.
        const intoId = leading === undefined ? laterSystem[0]!.item.id : [...messageIndexById].find(([, index]) => index === 0)![0];
        const text = [...(leading === undefined ? [] : [leading.text]), ...laterSystem.map((entry) => entry.text)].join("\n\n");
        const merged = new SystemMessage({ content: text, ...(leading?.id === undefined ? {} : { id: leading.id }) });
        if (leading === undefined) {
          for (const [id, index] of messageIndexById) messageIndexById.set(id, index + 1);
          messages.unshift(merged);
        } else messages[0] = merged;
        for (const entry of laterSystem) {
          messageIndexById.set(entry.item.id, 0);
          if (entry.item.id !== intoId) context.report.merge(entry.item, intoId, "a system message after the first is sent in the leading system message: Anthropic and Gemini refuse one elsewhere");
        }
      }
      const request: LangChainRequest = { messages };
      let tokenCount = countLangChainFixedTokens(context.tokenizer, context.tools);
      for (const message of messages) tokenCount += this.#count(message, context.tokenizer);
      return {
        request,
        tokenCount,
        messageCount: messages.length,
        messageIndexById,
        // A LangChain model sends the tools, then the messages (system first).
        prefix: { tools: context.tools, messages },
      };
    });
    pipeline.hooks.validateRequest.for("langchain").tap(tap, (request, context) => {
      for (const violation of checkRules(langChainRules, request, { model: context.model })) context.issue(violation);
    });
  }
}
