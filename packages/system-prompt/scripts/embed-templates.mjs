// Embeds src/templates/*.md into src/templates/default-templates.ts, so the templates load the same
// way from src (tsx, vitest) and from dist, in any runtime and bundler, without reading files.
// The .md files stay the source of truth; default-templates.test.ts fails when the module is stale.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("../src/templates/", import.meta.url));
const names = readdirSync(dir)
  .filter((file) => file.endsWith(".md"))
  .map((file) => file.slice(0, -".md".length))
  .sort();

const entries = names.map((name) => `  ${JSON.stringify(name)}: ${JSON.stringify(readFileSync(join(dir, `${name}.md`), "utf8"))},`);
const source = `// Generated from src/templates/*.md by scripts/embed-templates.mjs (pnpm templates). Do not edit.
export const DEFAULT_TEMPLATE_FILES = {
${entries.join("\n")}
} as const;
`;

const target = join(dir, "default-template-files.ts");
const current = (() => {
  try {
    return readFileSync(target, "utf8");
  } catch {
    return undefined;
  }
})();
// Rewriting an unchanged file would needlessly invalidate build caches.
if (current !== source) writeFileSync(target, source);
