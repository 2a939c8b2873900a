// The example's one tool: a weather report long enough that old reports soon crowd the budget.
import type { LoopTool } from "@ctxpipe/loop";

export const weatherTool: LoopTool = {
  name: "get_weather",
  description: "Today's mountain weather report for a town.",
  parameters: { type: "object", properties: { town: { type: "string" } }, required: ["town"] },
  category: "web",
  run: ({ town }) => {
    const name = String(town);
    const hours = Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, "0")}:00 ${name}: ${4 + ((hour * 7 + name.length) % 9)} °C, wind ${10 + ((hour * 3) % 25)} km/h, ${hour % 5 === 0 ? "showers" : "clear"}`);
    return `Weather report for ${name}\n${hours.join("\n")}`;
  },
};
