// Shared vitest settings: tests resolve workspace packages to their TypeScript source through the
// "@ctxpipe/source" export condition, so no build is needed before testing. Vitest 4 resolves node
// tests through Vite's ssr environment, which ignores the top-level resolve.conditions.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  ssr: { resolve: { conditions: ["@ctxpipe/source", "module", "node", "development|production"] } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    setupFiles: [fileURLToPath(new URL("./vitest.setup.ts", import.meta.url))],
    // Property tests take seconds by design (fast-check's first binary-string arbitrary alone takes 2–3 s
    // to set up), and two cores shared by every test file stretch them further. Time is measured in
    // benchmarks, never by a test's deadline: this limit only catches a test that hangs.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Type tests (*.test-d.ts) run through tsc and count in the test summary.
    typecheck: { enabled: true, include: ["src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
