import { fileURLToPath } from "node:url";

/** The monorepo's root directory (this file is tools/release-check/src/repo-root.ts). */
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
