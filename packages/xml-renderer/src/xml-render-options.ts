// The chunk selection options. They are given to the plugin (defaults for every build) and per build
// as `build(items, { renderer: "xml", xml: { … } })`; a per-build value wins.
import { z } from "zod";
import { CHUNK_TYPES, type ChunkType } from "./chunk-type.js";

export const xmlRenderOptionsSchema = z.strictObject({
  /** SYSTEM chunks (stored system context). Default true. The system prompt is not a chunk. */
  includeSystem: z.boolean().optional(),
  /** ENVIRONMENT chunks (tool and skill results). Default true. */
  includeEnvironment: z.boolean().optional(),
  /** Chunk types to leave out, e.g. ["OUTPUT"]. */
  excludeTypes: z.array(z.enum(CHUNK_TYPES)).optional(),
  /** Only these chunks (item ids) are sent. The system prompt and items ctxpipe synthesized are not chunks. */
  includeOnlyChunkIds: z.array(z.string()).optional(),
});

/**
 * The per-build `xml` options: the selection options, plus `systemPrompt`, an alias of core's
 * `system` build option (give one of them; both is an error). Not a plugin option: a system prompt is
 * per build.
 */
export const xmlBuildOptionsSchema = xmlRenderOptionsSchema.extend({
  /** Another name for the system prompt; the same as the build option `system: "…"`. */
  systemPrompt: z.string().optional(),
});

/** What xmlRenderOptionsSchema accepts, with read-only lists so `as const` arrays can be passed. */
export interface XmlRenderOptions {
  readonly includeSystem?: boolean | undefined;
  readonly includeEnvironment?: boolean | undefined;
  readonly excludeTypes?: ReadonlyArray<ChunkType> | undefined;
  readonly includeOnlyChunkIds?: ReadonlyArray<string> | undefined;
}

/** What xmlBuildOptionsSchema accepts: `build(items, { renderer: "xml", xml: { … } })`. */
export interface XmlBuildOptions extends XmlRenderOptions {
  /** Another name for the system prompt; the same as the build option `system: "…"`. */
  readonly systemPrompt?: string | undefined;
}

/** The options with their defaults filled in. */
export interface ResolvedXmlRenderOptions {
  readonly includeSystem: boolean;
  readonly includeEnvironment: boolean;
  readonly excludeTypes: ReadonlySet<string>;
  readonly includeOnlyChunkIds: ReadonlySet<string> | undefined;
}

/** Per-build options over plugin defaults, field by field. */
export function resolveXmlRenderOptions(defaults: XmlRenderOptions, build: XmlRenderOptions | undefined): ResolvedXmlRenderOptions {
  const merged = { ...defaults, ...build };
  return {
    includeSystem: merged.includeSystem ?? true,
    includeEnvironment: merged.includeEnvironment ?? true,
    excludeTypes: new Set(merged.excludeTypes ?? []),
    includeOnlyChunkIds: merged.includeOnlyChunkIds === undefined ? undefined : new Set(merged.includeOnlyChunkIds),
  };
}
