// The policy view: the items a compress tap received, as the filter, repair-orphans and insert-system
// stages leave them. Compress runs first, so a compress tap that hands items to a model (a summarizer)
// would read what a later stage leaves out (includeInContext: false, stored system messages that are
// not sent, a user's filter) or rewrites (a redaction plugin) unless it asks what those stages make of
// them; what compress taps before it rewrote (a redaction at STAGE.FIRST) is in the list it received.
// The pipeline runs those stages over that list once per build, on a context of their own: their
// decisions and warnings reach no report, and the build's own stages run as they always do.
import type { Item } from "../model/item.js";
import type { EventLog, LogSnapshot } from "./event-log.js";
import type { Items } from "./pipeline-hooks.js";
import type { StageContext } from "./stage-context.js";

export interface PolicyView {
  /** The items the asking compress tap received, as filter, repair-orphans and insert-system leave them, in order (a composed system prompt included). */
  readonly items: Items;
  /**
   * The item under this id as those stages send it: the same object when they leave it as it is,
   * the rewritten one when a plugin rewrote it, undefined when they leave it out.
   */
  sentFormOf(id: string): Item | undefined;
}

const views = new WeakMap<object, () => Promise<PolicyView>>();
// What the stages decided in the view's own run, for the pipeline (not part of the public view).
const decisions = new WeakMap<PolicyView, LogSnapshot>();

/** Called by the pipeline for each build context it makes; `compute` runs at most once per build. */
export function registerPolicyView(context: object, compute: () => Promise<PolicyView>): void {
  views.set(context, compute);
}

export function policyViewFrom(items: Items, log?: EventLog): PolicyView {
  // Indexed on first ask: a build that only needs the view's decisions (its offloaded texts) never asks.
  let byId: Map<string, Item> | undefined;
  const sentFormOf = (id: string): Item | undefined => {
    if (byId === undefined) {
      byId = new Map();
      for (const item of items) byId.set(item.id, item);
    }
    return byId.get(id);
  };
  const view: PolicyView = { items, sentFormOf };
  if (log !== undefined) decisions.set(view, log.snapshot());
  return view;
}

/** The decisions the view's run of the stages recorded; none for a view made without them. */
export function policyDecisionsOf(view: PolicyView): LogSnapshot | undefined {
  return decisions.get(view);
}

/**
 * What the later item stages make of the list the running compress tap received (the build's input
 * when no compress tap before it changed anything). For a compress-stage tap that hands items to
 * a model: give it only items the view holds, in the view's form, so that nothing a later stage leaves
 * out or rewrites for policy reaches a model through it. A context the pipeline did not make (a test's
 * own) has no later stages to ask: its view leaves out items with `includeInContext: false` and stored
 * system messages, as the default plugins would.
 */
export function policyViewOf(context: StageContext): Promise<PolicyView> {
  // A tap may hand its parts a context made with Object.create(context): the build's is up the chain.
  for (let candidate: object | null = context; candidate !== null; candidate = Object.getPrototypeOf(candidate)) {
    const compute = views.get(candidate);
    if (compute !== undefined) return compute();
  }
  return Promise.resolve(policyViewFrom(context.inputItems.filter((item) => item.metadata.includeInContext !== false && item.type !== "system")));
}
