// A chat an app stored with useChat (UIMessage[]), as it is after a few weeks of use: long (it no
// longer fits the budget), an assistant message saved twice by a retried onFinish, and a last
// assistant message whose stream was aborted after the model called a tool, so the call has no result.
import type { UIMessage } from "ai";

const CITIES = ["Paris", "Lyon", "Nice", "Lille", "Nantes", "Rennes", "Dijon", "Metz", "Tours", "Brest"];

function forecast(city: string, day: number): string {
  return Array.from({ length: 7 }, (_, offset) => `Day ${day + offset}: ${12 + ((day + offset) % 9)}°C in ${city}, wind ${5 + offset} km/h.`).join(" ");
}

function weatherTurn(turn: number): UIMessage[] {
  const city = CITIES[turn % CITIES.length]!;
  return [
    { id: `u${turn}`, role: "user", parts: [{ type: "text", text: `What is the weather in ${city} this week?` }] },
    {
      id: `a${turn}`,
      role: "assistant",
      parts: [
        { type: "tool-weather", toolCallId: `call_w${turn}`, state: "output-available", input: { city }, output: forecast(city, turn) },
        { type: "text", text: `${city} stays mild all week.` },
      ],
    },
  ];
}

export function storedChat(): UIMessage[] {
  const turns = Array.from({ length: 40 }, (_, turn) => weatherTurn(turn)).flat();
  const saved = turns.at(-1)!;
  return [
    ...turns,
    // onFinish ran twice for the same answer: the message is stored twice.
    { ...saved },
    { id: "u-train", role: "user", parts: [{ type: "text", text: "Which trains go to Paris tomorrow?" }] },
    // The tab was closed while the model was calling the tool: the call never got its result.
    { id: "a-aborted", role: "assistant", parts: [{ type: "tool-train", toolCallId: "call_aborted", state: "input-available", input: { to: "Paris" } }] },
    { id: "u-again", role: "user", parts: [{ type: "text", text: "Sorry, the page reloaded. Trains to Paris tomorrow?" }] },
  ];
}
