import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "examples/*", "bench", "docs", "tools/*"],
    reporters: ["default", "./scripts/vitest-summary-reporter.ts"],
    coverage: { provider: "v8", include: ["packages/*/src/**"] },
  },
});
