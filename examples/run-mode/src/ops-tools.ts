// The run's tools. query_metrics can kill its own process (kill -9) to show that the next process
// resumes from the log: the call it was running has no result, and the next process answers it as interrupted.
import type { LoopTool } from "@ctxpipe/loop";

export function opsTools(options: { crashInMetrics: boolean }): LoopTool[] {
  return [
    {
      name: "read_log",
      description: "Lines of the service log around a time.",
      parameters: { type: "object", properties: { around: { type: "string" } } },
      category: "ops",
      run: () => ["02:58 WARN pool: 95% of connections in use", "03:01 ERROR pool: timeout acquiring connection", "03:02 ERROR api: 503 for 41% of requests", "03:19 INFO deploy: v2.4.1 rolled back"].join("\n"),
    },
    {
      name: "query_metrics",
      description: "A metric's values around the outage.",
      parameters: { type: "object", properties: { metric: { type: "string" } }, required: ["metric"] },
      category: "ops",
      run: ({ metric }) => {
        if (options.crashInMetrics) process.kill(process.pid, "SIGKILL");
        return `${String(metric)}: 02:50 120, 02:55 410, 03:00 1000 (pool maximum), 03:20 130`;
      },
    },
  ];
}
