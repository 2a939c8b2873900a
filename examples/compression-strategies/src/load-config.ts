// A compression configuration is a JSON file in configs/: CompressionPlugin's options as they are, plus a
// description. Choosing or swapping strategies means pointing at another file; no code changes.
import { readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import type { CompressionPluginOptions } from "@ctxpipe/compression";

const configsDir = fileURLToPath(new URL("../configs/", import.meta.url));

export interface CompressionConfig {
  readonly name: string;
  readonly description: string;
  /** Handed to CompressionPlugin, which validates it (a typo fails with a PluginOptionsError naming the field). */
  readonly options: CompressionPluginOptions;
}

/** The configurations in configs/, by file name without ".json". */
export function configNames(): string[] {
  return readdirSync(configsDir)
    .filter((file) => file.endsWith(".json"))
    .map((file) => basename(file, ".json"))
    .sort();
}

export function loadConfig(name: string): CompressionConfig {
  if (!configNames().includes(name)) throw new Error(`no configuration "${name}" in configs/; there are: ${configNames().join(", ")}`);
  const { description, ...options } = JSON.parse(readFileSync(`${configsDir}${name}.json`, "utf8")) as CompressionPluginOptions & { description?: string };
  return { name, description: description ?? "", options };
}
