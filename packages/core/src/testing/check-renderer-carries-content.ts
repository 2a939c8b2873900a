// "Nothing lost silently", for every piece of item content and any renderer: each piece (CONTENT_PIECES)
// is rendered in a conversation of its own and in one conversation with all the others, and must show
// in the request (its marker anywhere in the request's JSON; a flag by changing the request), unless
// the report says its item was dropped, cleared, truncated, repaired or summarized, with a reason. What a renderer
// leaves out on purpose without a report entry is listed in `knownOmissions`, each with why.
import type { ItemInput } from "../model/item.js";
import type { Decision } from "../pipeline/build-report.js";
import type { BuildResult } from "../pipeline/build-result.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import type { RendererName } from "../spec/renderer-output-map.js";
import { CONTENT_PIECES, type ContentPiece, type ContentPieceName, conversationAround, markerOf } from "./content-pieces.js";
import { buildFor, describeError, pipelineFor, type RendererUnderTest } from "./renderer-under-test.js";

export interface RendererContentCheck<R extends RendererName> extends RendererUnderTest<R> {
  /**
   * Pieces the renderer leaves out without a report entry, each with the reason. The check fails
   * for a listed piece that the request does carry, so the list cannot outlive the gap it names.
   */
  readonly knownOmissions?: Partial<Record<ContentPieceName, string>>;
}

/** Decisions that tell the reader an item's content was not sent as it was. */
const REPORTED: ReadonlySet<Decision> = new Set(["dropped", "cleared", "truncated", "repaired", "summarized"]);

/** The reason the report gives for not sending the item as it was, if it gives one. */
function reportedReason(result: BuildResult<unknown>, itemId: string): string | undefined {
  const entry = result.report.entries.find((candidate) => candidate.id === itemId);
  return entry?.history.findLast((event) => REPORTED.has(event.decision) && event.reason.trim().length > 0)?.reason;
}

type Outcome = { readonly carried: true } | { readonly carried: false; readonly reported: string | undefined; readonly decision: string } | { readonly failed: string };

export async function checkRendererCarriesContent<R extends RendererName>(check: RendererContentCheck<R>, pipeline: Pipeline = pipelineFor(check)): Promise<string[]> {
  const problems: string[] = [];
  const known = check.knownOmissions ?? {};
  for (const [name, reason] of Object.entries(known)) {
    if (reason === undefined || reason.trim().length === 0) problems.push(`knownOmissions["${name}"] gives no reason`);
  }
  const build = async (items: ReadonlyArray<ItemInput>): Promise<BuildResult<unknown> | string> => {
    try {
      return await buildFor(pipeline, check, items);
    } catch (error) {
      return describeError(error);
    }
  };
  /** `results`: the builds the piece was looked for in; the report of any of them may explain its absence. */
  const outcome = (results: ReadonlyArray<BuildResult<unknown>>, piece: ContentPiece, carried: boolean): Outcome => {
    if (carried) return { carried };
    const entry = results[0]!.report.entries.find((candidate) => candidate.id === piece.itemId);
    const reported = results.map((result) => reportedReason(result, piece.itemId)).find((reason) => reason !== undefined);
    return { carried, reported, decision: entry === undefined ? "no entry" : `${entry.decision}: ${entry.reason}` };
  };

  // Every text piece at once, in one conversation, as a real history mixes them.
  const together = CONTENT_PIECES.filter((piece) => piece.kind === "text");
  const all = await build(conversationAround(together.flatMap((piece) => piece.items(markerOf(piece.name)))));

  for (const piece of CONTENT_PIECES) {
    const outcomes: Array<{ readonly where: string; readonly outcome: Outcome }> = [];
    if (piece.kind === "text") {
      const marker = markerOf(piece.name);
      const alone = await build(conversationAround(piece.items(marker)));
      for (const [where, result] of [
        ["alone", alone],
        ["among the other pieces", all],
      ] as const) {
        outcomes.push({ where, outcome: typeof result === "string" ? { failed: result } : outcome([result], piece, JSON.stringify(result.request).includes(marker)) });
      }
    } else {
      const set = await build(conversationAround(piece.items("true")));
      const unset = await build(conversationAround(piece.items("false")));
      if (typeof set === "string" || typeof unset === "string") outcomes.push({ where: "alone", outcome: { failed: typeof set === "string" ? set : (unset as string) } });
      else outcomes.push({ where: "alone", outcome: outcome([set, unset], piece, JSON.stringify(set.request) !== JSON.stringify(unset.request)) });
    }
    const what = piece.kind === "text" ? `${piece.name} ("${markerOf(piece.name)}") of item "${piece.itemId}"` : `${piece.name} of item "${piece.itemId}"`;
    const excused = known[piece.name];
    let omitted = false;
    for (const { where, outcome: result } of outcomes) {
      if ("failed" in result) problems.push(`${what}, ${where}: the build failed: ${result.failed}`);
      else if (!result.carried && result.reported === undefined) {
        omitted = true;
        if (excused === undefined) {
          const missing = piece.kind === "text" ? "is nowhere in the request" : "makes no difference to the request";
          problems.push(`${what}, ${where}: ${missing}, and the report does not say why (${result.decision})`);
        }
      }
    }
    if (excused !== undefined && !omitted) problems.push(`${piece.name} is listed in knownOmissions ("${excused}") but the request carries it, or the report explains it: remove it from the list`);
  }
  return problems;
}
