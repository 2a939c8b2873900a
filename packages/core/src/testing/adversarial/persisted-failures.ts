// Persisted failures: inserts failed model calls where stores keep them — the loops' `LLM_ERROR` text as
// an `error` item (code and fingerprint in metadata.extra) or as a plain assistant message, retried runs
// of the same failure, a user "continue" after one, and a failure as the newest message.
import type fc from "fast-check";
import type { ItemInput } from "../../model/item.js";

type FastCheck = typeof fc;

/** One stored failure: what the provider said, and how the store kept it. */
interface FailureSpec {
  readonly at: number;
  readonly cause: number;
  readonly shape: "error-item" | "plain-assistant" | "short-error-item";
  readonly repeats: number;
  readonly thenContinue: boolean;
}

/** What the loops persist for a failed call (`formatModelFailure`), by cause. */
const CAUSES = [
  { code: "LLM_HTTP_ERROR", status: 529, providerCode: "overloaded_error", message: "anthropic: HTTP 529: Overloaded" },
  { code: "LLM_HTTP_ERROR", status: 429, providerCode: "rate_limit_exceeded", message: "openai: HTTP 429 Too Many Requests: Rate limit reached for gpt-4o" },
  { code: "LLM_TIMEOUT", message: "openai: no complete answer within 60000 ms" },
  { code: "LLM_NETWORK_ERROR", message: "anthropic: the connection broke: ECONNRESET" },
  { code: "LLM_HTTP_ERROR", status: 401, providerCode: "invalid_api_key", message: "openai: HTTP 401: Incorrect API key provided" },
  { code: "LLM_HTTP_ERROR", status: 400, message: "anthropic: HTTP 400: messages.1: roles must alternate" },
] as const;

function loopText(cause: (typeof CAUSES)[number]): string {
  const lines = ["LLM_ERROR", `- Code: ${cause.code}`];
  if ("status" in cause) lines.push(`- Status: ${cause.status}`);
  if ("providerCode" in cause) lines.push(`- Provider code: ${cause.providerCode}`);
  lines.push(`- Message: ${cause.message}`, "", "The previous model call failed before it produced an answer. Continue from where the conversation stands.");
  return lines.join("\n");
}

function failureItem(id: string, spec: FailureSpec): ItemInput {
  const cause = CAUSES[spec.cause % CAUSES.length]!;
  const fingerprint = [cause.code, "status" in cause ? cause.status : "", "providerCode" in cause ? cause.providerCode : "", cause.message].join("|");
  const metadata = { mode: "chat", extra: { errorCode: cause.code, errorFingerprint: fingerprint } };
  switch (spec.shape) {
    case "error-item":
      return { id, type: "error", text: loopText(cause), metadata };
    case "plain-assistant":
      return { id, type: "assistant", text: loopText(cause), metadata };
    case "short-error-item":
      return { id, type: "error", text: `${cause.code}: ${cause.message}`, code: cause.code };
  }
}

/** A perturbation that inserts persisted failures into a generated item list. */
export function persistedFailures(fc: FastCheck): fc.Arbitrary<(items: ItemInput[]) => ItemInput[]> {
  const spec = fc.record({
    at: fc.nat(),
    cause: fc.nat({ max: CAUSES.length - 1 }),
    shape: fc.constantFrom("error-item" as const, "plain-assistant" as const, "short-error-item" as const),
    repeats: fc.integer({ min: 1, max: 3 }),
    thenContinue: fc.boolean(),
  });
  return fc.array(spec, { minLength: 1, maxLength: 4 }).map((specs) => (items: ItemInput[]) => insertFailures(items, specs));
}

function insertFailures(items: ReadonlyArray<ItemInput>, specs: ReadonlyArray<FailureSpec>): ItemInput[] {
  const taken = new Set(items.map((item) => item.id));
  let counter = 0;
  const freshId = (stem: string) => {
    let id: string;
    do id = `${stem}-${counter++}`;
    while (taken.has(id));
    taken.add(id);
    return id;
  };
  // Insertions by position in the original list; several at one position keep their order.
  const inserts = new Map<number, ItemInput[]>();
  for (const spec of specs) {
    const at = spec.at % (items.length + 1);
    const added = inserts.get(at) ?? [];
    // A retried call fails the same way again, and each failure is its own stored message.
    for (let attempt = 0; attempt < spec.repeats; attempt++) added.push(failureItem(freshId("failed-call"), spec));
    if (spec.thenContinue) added.push({ id: freshId("continue"), type: "user", text: "continue" });
    inserts.set(at, added);
  }
  const output: ItemInput[] = [];
  for (let position = 0; position <= items.length; position++) {
    output.push(...(inserts.get(position) ?? []));
    if (position < items.length) output.push(items[position]!);
  }
  return output;
}
