import { defineConfig } from "vitest/config";

export default defineConfig({
  ssr: { resolve: { conditions: ["@ctxpipe/source", "module", "node", "development|production"] } },
  test: { include: ["*.test.ts"] },
});
