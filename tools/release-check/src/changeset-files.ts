import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BumpType } from "./semver.js";

export interface ChangesetFile {
  /** File name inside .changeset/. */
  readonly file: string;
  /** Package name → bump type, from the front matter. */
  readonly releases: ReadonlyMap<string, BumpType>;
  /** The text after the front matter, trimmed. */
  readonly summary: string;
}

/** The pending changesets of `changesetDir`: every *.md except README.md. */
export function readChangesets(changesetDir: string): ChangesetFile[] {
  return readdirSync(changesetDir)
    .filter((file) => file.endsWith(".md") && file !== "README.md")
    .sort()
    .map((file) => parseChangeset(file, readFileSync(join(changesetDir, file), "utf8")));
}

export function parseChangeset(file: string, text: string): ChangesetFile {
  const match = /^---\r?\n([\s\S]*?)\r?\n?---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`.changeset/${file}: no front matter between --- lines`);
  const releases = new Map<string, BumpType>();
  for (const line of match[1]!.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    const release = /^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch)\s*$/.exec(line);
    if (!release) throw new Error(`.changeset/${file}: front matter line not understood: ${line}`);
    releases.set(release[1]!, release[2] as BumpType);
  }
  return { file, releases, summary: match[2]!.trim() };
}
