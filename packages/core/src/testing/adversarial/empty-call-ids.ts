// Empty tool-call ids: chosen call-making messages, their results and (by choice) orphan results store `id: ""`, as local servers return them.
import type fc from "fast-check";
import type { ItemInput } from "../../model/item.js";

type FastCheck = typeof fc;
type Call = { id: string };
type Loose = ItemInput & { type?: string; callId?: string; toolCalls?: Call[] };

/**
 * The k-th call-making message loses its call ids when `flags[k % flags.length]`; a result loses its
 * call id when the message it answers did (the latest earlier message making that call), or, with
 * `orphans`, when no earlier message makes its call. Items are copied, never changed in place.
 */
export function emptyCallIds(fc: FastCheck): fc.Arbitrary<(items: ItemInput[]) => ItemInput[]> {
  return fc.record({ flags: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), orphans: fc.boolean() }).map(({ flags, orphans }) => (items: ItemInput[]) => {
    // For each call id, whether the latest message that made it lost its ids.
    const blanked = new Map<string, boolean>();
    let made = 0;
    return items.map((input) => {
      const item = input as Loose;
      if (item.type === "assistant" && item.toolCalls !== undefined && item.toolCalls.length > 0) {
        const blank = flags[made++ % flags.length]!;
        for (const call of item.toolCalls) blanked.set(call.id, blank);
        return blank ? ({ ...item, toolCalls: item.toolCalls.map((call) => ({ ...call, id: "" })) } as ItemInput) : input;
      }
      if (item.type === "tool-result" && item.callId !== undefined) {
        const blank = blanked.get(item.callId) ?? orphans;
        return blank ? ({ ...item, callId: "" } as ItemInput) : input;
      }
      return input;
    });
  });
}
