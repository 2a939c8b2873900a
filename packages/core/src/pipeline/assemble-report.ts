// Turns the events recorded during a build into the report: one entry per input item with its final
// decision, plus entries for items plugins synthesized.
import type { Item } from "../model/item.js";
import type { BuildContextInternals } from "./build-context.js";
import type { ReportEntry, ReportEvent } from "./build-report.js";
import type { StageLabel } from "./stage.js";

const REMOVING: ReadonlySet<string> = new Set(["dropped", "summarized"]);

export interface AssembledReport {
  readonly entries: ReportEntry[];
  readonly synthesized: ReportEntry[];
  readonly includedIds: string[];
  readonly excludedIds: string[];
}

export interface AssembleInput {
  /** Input items in input order. */
  readonly inputItems: ReadonlyArray<Item>;
  /** What the render stage received. */
  readonly finalItems: ReadonlyArray<Item>;
  readonly internals: BuildContextInternals;
  readonly renderPlugin: string;
  readonly messageIndexById: ReadonlyMap<string, number> | undefined;
  countTokens(item: Item): number;
}

function entryFor(
  item: Item,
  inputIndex: number | undefined,
  decision: ReportEvent,
  history: ReadonlyArray<ReportEvent>,
  tokens: number,
  messageIndex: number | undefined,
): ReportEntry {
  return {
    id: item.id,
    inputIndex,
    type: item.type,
    role: item.role,
    decision: decision.decision,
    stage: decision.stage,
    plugin: decision.plugin,
    reason: decision.reason,
    ...(decision.relatedId === undefined ? {} : { relatedId: decision.relatedId }),
    tokens,
    ...(messageIndex === undefined ? {} : { messageIndex }),
    history,
  };
}

export function assembleReport(input: AssembleInput): AssembledReport {
  const { internals, messageIndexById } = input;
  const finalById = new Map<string, Item>();
  for (const item of input.finalItems) finalById.set(item.id, item);

  const sent = (id: string): boolean => {
    if (!finalById.has(id)) return false;
    const last = internals.events.get(id)?.at(-1);
    return last === undefined || !REMOVING.has(last.decision);
  };

  const renderStage: StageLabel = "render";
  const keptEvent = (id: string): ReportEvent => {
    const messageIndex = messageIndexById?.get(id);
    const reason = messageIndex === undefined ? "sent to the model" : `sent in message ${messageIndex}`;
    return { decision: "kept", stage: renderStage, plugin: input.renderPlugin, reason };
  };

  const entries: ReportEntry[] = [];
  const inputIds = new Set<string>();
  const excludedIds: string[] = [];
  input.inputItems.forEach((original, inputIndex) => {
    inputIds.add(original.id);
    const history = internals.events.get(original.id) ?? [];
    const final = finalById.get(original.id);
    let decision: ReportEvent;
    if (sent(original.id)) {
      // Present at the end: merged or repaired if a plugin said so last, otherwise kept.
      const last = history.at(-1);
      decision = last !== undefined && (last.decision === "merged" || last.decision === "repaired") ? last : keptEvent(original.id);
    } else {
      excludedIds.push(original.id);
      decision = [...history].reverse().find((event) => REMOVING.has(event.decision) || event.decision === "merged") ?? {
        decision: "dropped",
        stage: renderStage,
        plugin: input.renderPlugin,
        reason: "not in the rendered request",
      };
    }
    const counted = final ?? original;
    entries.push(entryFor(original, inputIndex, decision, history, input.countTokens(counted), messageIndexById?.get(original.id)));
  });

  const synthesized: ReportEntry[] = [];
  const includedIds: string[] = [];
  for (const item of input.finalItems) {
    if (!sent(item.id)) continue;
    if (inputIds.has(item.id)) {
      includedIds.push(item.id);
      continue;
    }
    const history = internals.events.get(item.id) ?? [];
    const decision = history.findLast((event) => event.decision === "synthesized") ?? {
      decision: "synthesized" as const,
      stage: renderStage,
      plugin: "unknown",
      reason: "added without a recorded reason",
    };
    synthesized.push(entryFor(item, undefined, decision, history, input.countTokens(item), messageIndexById?.get(item.id)));
  }
  return { entries, synthesized, includedIds, excludedIds };
}
