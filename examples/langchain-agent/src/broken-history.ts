// An agent conversation as a LangChain app stored it after a rough night: a stream aborted mid-call,
// a result written twice, a result whose call was lost, a call whose arguments did not parse, and a
// 30 KB log that alone is over the budget.
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";

export function brokenHistory(): BaseMessage[] {
  const log = "2026-11-25T10:00:00Z INFO GET /api/orders 200 12ms user=4411 region=eu-west-1\n".repeat(400);
  return [
    new HumanMessage({ id: "h1", content: "Why were orders slow last night? Check the server log." }),
    new AIMessage({ id: "a1", content: "", tool_calls: [{ id: "call_log", name: "read_log", args: { file: "orders.log" } }] }),
    new ToolMessage({ id: "t1", tool_call_id: "call_log", name: "read_log", content: log }),
    new ToolMessage({ id: "t1-retry", tool_call_id: "call_log", name: "read_log", content: log }),
    new AIMessage({ id: "a2", content: "The log shows only fast requests; the slowness was elsewhere." }),
    new HumanMessage({ id: "h2", content: "Then check the database latency." }),
    new AIMessage({ id: "a3", content: "", tool_calls: [{ id: "call_db", name: "db_latency", args: { window: "24h" } }] }),
    new ToolMessage({ id: "t-orphan", tool_call_id: "call_lost", content: "p99 = 840 ms" }),
    new AIMessage({ id: "a4", content: "Retrying.", invalid_tool_calls: [{ id: "call_bad", name: "db_latency", args: '{"window": "24', error: "Malformed args." }] }),
    new HumanMessage({ id: "h3", content: "What is the database latency now?" }),
  ];
}
