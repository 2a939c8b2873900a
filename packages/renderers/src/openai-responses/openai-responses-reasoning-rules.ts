// OpenAI Responses rules on reasoning items sent back: each stands right before the item it belongs to,
// ids go together, and without storage the reasoning travels encrypted
// (reference/providers.md §2: RSP-008, 009, 023).
//
// The API knows, for a reasoning item it stored, which item followed it and which reasoning a message
// or call belongs to; a request alone does not say. What a request does show is checked: what follows
// a reasoning item, whether that follower carries an id when the reasoning does, and whether an item
// with an id comes after a reasoning item whose id was left out. A turn whose reasoning was dropped
// entirely while its items kept their ids looks like a turn that never had any: ctxpipe's renderer
// avoids it by construction (ids are sent only with every reasoning item of the turn).
import type { Rule } from "@ctxpipe/core";
import { at, describeValue, type InputItemView, inputViewsOf, isBuiltInCallType, isModelItem, isRecord } from "./openai-responses-input-view.js";

/** What may follow a reasoning item: the message or call it led to. */
function belongsAfterReasoning(view: InputItemView): boolean {
  return view.kind === "assistant-message" || view.kind === "function_call" || (view.kind === "other" && view.type !== undefined && isBuiltInCallType(view.type));
}

export const reasoningFollowedByItsItem: Rule<unknown> = {
  id: "RSP-008",
  level: "error",
  requires:
    "a reasoning item is immediately followed by the item it belongs to (an assistant message, a function_call or a built-in tool call), or by more reasoning items and then that item, and a reasoning item sent with its id is followed by that item sent with its id",
  providerError: "Item 'rs_06a20bd006d58dde00692a12986174819ea1cd9ea5b9ca4946' of type 'reasoning' was provided without its required following item.",
  check(request, report) {
    const views = inputViewsOf(request);
    for (const view of views) {
      if (view.kind !== "reasoning") continue;
      // A run of reasoning items (the API may return several in a row) leads to the item after the run.
      let end = view.index + 1;
      while (views[end]?.kind === "reasoning") end++;
      const next = views[end];
      const name = view.id === undefined ? "the reasoning item" : `reasoning ${describeValue(view.id)}`;
      if (next === undefined) report({ message: `${name} is the last item: the message or call it belongs to must follow it`, ...at(view) });
      else if (!belongsAfterReasoning(next)) report({ message: `${name} is followed by ${next.type === undefined ? "an item of no type" : `a ${next.type}${next.kind === "input-message" ? ` (${describeValue(next.fields.role)})` : ""} item`}, not by the message or call it belongs to`, ...at(view) });
      else if (view.id !== undefined && next.kind !== "other" && next.id === undefined) {
        report({ message: `${name} is sent with its id, but the ${next.type} after it is not: without its id the API does not take it for the item this reasoning belongs to`, ...at(view) });
      }
    }
  },
};

export const itemsWithIdsKeepTheirReasoning: Rule<unknown> = {
  id: "RSP-009",
  level: "error",
  requires: "an assistant message or function_call sent with its id does not follow, in its turn, a reasoning item sent without its id (send both ids or neither)",
  providerError:
    "Item 'msg_05636c497febfefa0069a89e68230c8197af35ec2530228f39' of type 'message' was provided without its required 'reasoning' item: 'rs_05636c497febfefa0069a89e65bf4081979531cf3990dda8e8'.",
  check(request, report) {
    const views = inputViewsOf(request);
    for (const view of views) {
      if ((view.kind !== "assistant-message" && view.kind !== "function_call") || view.id === undefined) continue;
      // The nearest reasoning item before it in the same turn (the run of items the model wrote).
      let reasoning: InputItemView | undefined;
      for (let index = view.index - 1; index >= 0; index--) {
        const earlier = views[index]!;
        if (!isModelItem(earlier)) break;
        if (earlier.kind === "reasoning") {
          reasoning = earlier;
          break;
        }
      }
      if (reasoning === undefined || reasoning.id !== undefined) continue;
      report({ message: `the ${view.type} ${describeValue(view.id)} is sent with its id, but the reasoning item it follows (input[${reasoning.index}]) is sent without one`, ...at(view, ".id") });
    }
  },
};

export const storelessReasoningEncrypted: Rule<unknown> = {
  id: "RSP-023",
  level: "error",
  requires: "with store: false nothing is kept by the API, so every reasoning item carries its encrypted_content and no item_reference is sent",
  providerError:
    "Item with id 'rs_688404f677dc81a1b0f94bd50c9dbc4b064a6bfa4c1e652e' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.",
  check(request, report) {
    if (!isRecord(request) || request.store !== false) return;
    for (const view of inputViewsOf(request)) {
      if (view.kind === "reasoning" && (typeof view.fields.encrypted_content !== "string" || view.fields.encrypted_content === "")) {
        report({ message: "the reasoning item has no encrypted_content, and with store: false the API keeps no copy to read it from (request it with include: ['reasoning.encrypted_content'])", ...at(view, ".encrypted_content") });
      } else if (view.type === "item_reference") {
        report({ message: "an item_reference points at a stored item, and with store: false the API keeps none", ...at(view) });
      }
    }
  },
};
