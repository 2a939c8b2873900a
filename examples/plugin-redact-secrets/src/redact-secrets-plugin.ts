// RedactSecretsPlugin: replaces API keys, tokens and (optionally) email addresses in every item's text
// at the very start of the compress stage, the first stage of a build, so no later plugin (a compression
// plugin that sends items to an LLM summarizer included), renderer or provider sees them.
import { type Item, type ItemOf, type PipelinePlugin, type PluginHost, parsePluginOptions, STAGE } from "@ctxpipe/core";
import { z } from "zod";
import { redactText } from "./redact-text.js";
import { BUILT_IN_SECRET_PATTERNS, EMAIL_PATTERN, type SecretPattern } from "./secret-patterns.js";

const PLUGIN_NAME = "RedactSecretsPlugin";

const secretPatternSchema = z.object({
  /** Shows in the placeholder and in the report; kept to characters that read well in both. */
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "must be letters, digits, '-', '_' or '.' (it goes into [REDACTED:<name>])"),
  pattern: z.instanceof(RegExp, { message: "must be a RegExp" }),
});

// Strict: a misspelt option (say `email: true`) would otherwise be dropped silently and the data it
// was meant to protect would be sent.
const redactSecretsPluginOptionsSchema = z.strictObject({
  /** Also redact email addresses. Off by default: an agent often needs an address to do its task. */
  emails: z.boolean().default(false),
  /** Patterns of your own, applied after the built-in ones. */
  patterns: z.array(secretPatternSchema).default([]),
  /**
   * Position inside the compress stage; first, so no compression plugin (which may send items to an
   * LLM summarizer) and no later stage ever sees a secret.
   */
  stage: z.number().default(STAGE.FIRST),
});

export type RedactSecretsPluginOptions = z.input<typeof redactSecretsPluginOptionsSchema>;

/** What redacting one item found: pattern names per replacement, and signed reasoning left out. */
interface Findings {
  readonly found: string[];
  droppedReasoning: number;
}

/** "redacted 3 secrets: openai-api-key (2), email", names in the order they were first found. */
function reasonFor(findings: Findings): string {
  const counts = new Map<string, number>();
  for (const name of findings.found) counts.set(name, (counts.get(name) ?? 0) + 1);
  const names = [...counts].map(([name, count]) => (count === 1 ? name : `${name} (${count})`));
  const total = findings.found.length;
  const reason = `redacted ${total} ${total === 1 ? "secret" : "secrets"}: ${names.join(", ")}`;
  const dropped = findings.droppedReasoning;
  return dropped === 0 ? reason : `${reason}; left out ${dropped} signed reasoning ${dropped === 1 ? "part" : "parts"} that contained them`;
}

export class RedactSecretsPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof redactSecretsPluginOptionsSchema>;
  readonly #patterns: ReadonlyArray<SecretPattern>;

  constructor(options: RedactSecretsPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, redactSecretsPluginOptionsSchema, options);
    this.#patterns = [...BUILT_IN_SECRET_PATTERNS, ...(this.#options.emails ? [EMAIL_PATTERN] : []), ...this.#options.patterns];
  }

  #redact(text: string, findings: Findings): string {
    const result = redactText(text, this.#patterns);
    findings.found.push(...result.found);
    return result.text;
  }

  #redactAssistant(item: ItemOf<"assistant">, findings: Findings): ItemOf<"assistant"> {
    const text = this.#redact(item.text, findings);
    let callsChanged = false;
    const toolCalls = item.toolCalls.map((call) => {
      const redacted = this.#redact(call.arguments, findings);
      if (redacted === call.arguments) return call;
      callsChanged = true;
      return { ...call, arguments: redacted };
    });
    const reasoning = this.#redactReasoning(item.reasoning, findings);
    if (text === item.text && !callsChanged && reasoning === item.reasoning) return item;
    const redacted: ItemOf<"assistant"> = { ...item, text, toolCalls: callsChanged ? toolCalls : item.toolCalls };
    if (reasoning !== undefined) redacted.reasoning = reasoning;
    return redacted;
  }

  /** The same array when nothing in it changed. */
  #redactReasoning(reasoning: ItemOf<"assistant">["reasoning"], findings: Findings): ItemOf<"assistant">["reasoning"] {
    if (reasoning === undefined) return undefined;
    let changed = false;
    const parts: typeof reasoning = [];
    for (const part of reasoning) {
      // Provider-encrypted reasoning has no readable text to redact.
      const text = part.redacted === true ? part.text : this.#redact(part.text, findings);
      if (text === part.text) {
        parts.push(part);
        continue;
      }
      changed = true;
      // A signature covers the exact text, so edited reasoning would be refused. Leaving the part out
      // can at worst make the provider refuse the request; sending it would leak the secret.
      if (part.signature === undefined) parts.push({ ...part, text });
      else findings.droppedReasoning++;
    }
    return changed ? parts : reasoning;
  }

  /** The redacted item, or undefined when there was nothing to redact. */
  #redactItem(item: Item): { item: Item; findings: Findings } | undefined {
    const findings: Findings = { found: [], droppedReasoning: 0 };
    let redacted: Item;
    switch (item.type) {
      case "assistant":
        redacted = this.#redactAssistant(item, findings);
        break;
      case "tool-result": {
        const output = this.#redact(item.output, findings);
        redacted = output === item.output ? item : { ...item, output };
        break;
      }
      case "task-abandoned": {
        // The reason is rendered next to the text: "Task abandoned (<reason>):".
        const text = this.#redact(item.text, findings);
        const reason = item.reason === undefined ? undefined : this.#redact(item.reason, findings);
        redacted = text === item.text && reason === item.reason ? item : { ...item, text, ...(reason === undefined ? {} : { reason }) };
        break;
      }
      default: {
        const text = this.#redact(item.text, findings);
        redacted = text === item.text ? item : { ...item, text };
      }
    }
    return redacted === item ? undefined : { item: redacted, findings };
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.compress.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => {
      let changed = false;
      const redacted = items.map((item) => {
        const result = this.#redactItem(item);
        if (result === undefined) return item;
        changed = true;
        context.report.repair(item, reasonFor(result.findings));
        return result.item;
      });
      return changed ? redacted : undefined;
    });
  }
}
