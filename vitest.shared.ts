// Shared vitest settings: tests resolve workspace packages to their TypeScript source through the
// "@ctxpipe/source" export condition, so no build is needed before testing. Vitest 4 resolves node
// tests through Vite's ssr environment, which ignores the top-level resolve.conditions.
import { defineConfig } from "vitest/config";

export default defineConfig({
  ssr: { resolve: { conditions: ["@ctxpipe/source", "module", "node", "development|production"] } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Type tests (*.test-d.ts) run through tsc and count in the test summary.
    typecheck: { enabled: true, include: ["src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
