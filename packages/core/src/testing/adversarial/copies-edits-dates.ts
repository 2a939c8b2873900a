// Stores a generated history the way real stores do: some records written twice (exact copies), some
// edited later (same id, other text, stored after the original), some with a createdAt that is not a date.
import type fc from "fast-check";
import type { ItemInput } from "../../model/item.js";

type FastCheck = typeof fc;

type Perturbation =
  | { readonly kind: "copy"; readonly at: number; readonly later: number }
  | { readonly kind: "edit"; readonly at: number; readonly later: number; readonly text: string }
  | { readonly kind: "bad-date"; readonly at: number; readonly value: string };

const BAD_DATES = ["yesterday", "", "2026-13-45T99:00:00Z", "not a date", "1700000000000"] as const;

/** The record with its text (or a tool result's output) changed: what an edit stores under the same id. */
function edited(item: ItemInput, text: string): ItemInput {
  if (item.type === "tool-result") return { ...item, output: `${item.output}${text}` };
  if ("text" in item && typeof item.text === "string") return { ...item, text: `${item.text}${text}` } as ItemInput;
  return { ...item, metadata: { ...item.metadata, extra: { ...item.metadata?.extra, edited: text } } } as ItemInput;
}

/** Applies the perturbations in order to a copy of the list; positions wrap around its length. */
function apply(perturbations: ReadonlyArray<Perturbation>, items: ReadonlyArray<ItemInput>): ItemInput[] {
  const result = [...items];
  for (const perturbation of perturbations) {
    if (result.length === 0) break;
    const at = perturbation.at % result.length;
    const item = result[at]!;
    if (perturbation.kind === "bad-date") {
      result[at] = { ...item, createdAt: perturbation.value };
      continue;
    }
    // Stored after the original, as a second write or a later edit is.
    const to = at + 1 + (perturbation.later % (result.length - at));
    result.splice(to, 0, perturbation.kind === "copy" ? { ...item } : edited(item, perturbation.text));
  }
  return result;
}

export function copiesEditsDates(fc: FastCheck): fc.Arbitrary<(items: ItemInput[]) => ItemInput[]> {
  const perturbation: fc.Arbitrary<Perturbation> = fc.oneof(
    fc.record({ kind: fc.constant("copy" as const), at: fc.nat(), later: fc.nat() }),
    fc.record({ kind: fc.constant("edit" as const), at: fc.nat(), later: fc.nat(), text: fc.constantFrom(" (edited)", "", " — fixed typo", "\n") }),
    fc.record({ kind: fc.constant("bad-date" as const), at: fc.nat(), value: fc.constantFrom(...BAD_DATES) }),
  );
  return fc.array(perturbation, { maxLength: 4 }).map((perturbations) => {
    const perturb = (items: ItemInput[]) => apply(perturbations, items);
    // fast-check prints a counterexample's function by its toString: say what it does.
    return Object.assign(perturb, { toString: () => `copiesEditsDates(${JSON.stringify(perturbations)})` });
  });
}
