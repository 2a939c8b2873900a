// The pages the docs tests read: the README and every Markdown file under docs/, skipping the folders
// the tests write (.snippets, .prose-run) and node_modules.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const docsDir = dirname(fileURLToPath(import.meta.url));
export const root = join(docsDir, "..");

export function markdownFiles(): string[] {
  const found = [join(root, "README.md")];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  walk(docsDir);
  return found;
}
