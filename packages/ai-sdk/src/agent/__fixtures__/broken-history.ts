// A stored agent history as the AI SDK keeps it (ModelMessage[]), long and broken the ways users
// report: an old tool call and its result stored twice (a double write), a tool result whose call was
// never stored, and, last, a call whose result never came because the stream was aborted.
import type { ModelMessage } from "ai";

const CITIES = ["Paris", "Lyon", "Nice", "Lille", "Nantes", "Rennes", "Dijon", "Metz", "Tours", "Brest"];

function forecast(city: string, turn: number): string {
  const days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
  return days.map((day, index) => `${day}: ${12 + ((turn + index) % 9)}°C in ${city}, wind ${5 + index} km/h, ${index % 2 === 0 ? "dry" : "showers"}.`).join(" ");
}

/** `turns` answered weather turns: a question, a call, its result and an answer each. */
export function weatherTurns(turns: number): ModelMessage[] {
  return Array.from({ length: turns }, (_, turn): ModelMessage[] => {
    const city = CITIES[turn % CITIES.length]!;
    const id = `call_${turn}`;
    return [
      { role: "user", content: `Turn ${turn}: what is the weather in ${city} this week? I am planning a trip and want the details.` },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: id, toolName: "weather", input: { city } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: "weather", output: { type: "text", value: forecast(city, turn) } }] },
      { role: "assistant", content: `In ${city} it stays mild all week, with showers every other day.` },
    ];
  }).flat();
}

export interface BrokenHistory {
  readonly messages: ModelMessage[];
  /** The call id of the assistant message stored twice with its result. */
  readonly duplicateCallId: string;
  /** The call id a tool result answers although no stored message makes the call. */
  readonly orphanCallId: string;
  /** The call an aborted stream left without a result. */
  readonly unansweredCallId: string;
}

/**
 * `turns` answered turns, then the breakage, then the user's new question. Everything but the
 * unanswered call is accepted by `ai` as it is, and rejected by the providers.
 */
export function brokenHistory(turns: number, options: { unanswered?: boolean } = {}): BrokenHistory {
  const duplicateCall: ModelMessage = { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_dup", toolName: "weather", input: { city: "Paris" } }] };
  const duplicateResult: ModelMessage = { role: "tool", content: [{ type: "tool-result", toolCallId: "call_dup", toolName: "weather", output: { type: "text", value: forecast("Paris", 99) } }] };
  const messages: ModelMessage[] = [
    ...weatherTurns(turns),
    { role: "user", content: "And Paris?" },
    duplicateCall,
    duplicateResult,
    // The same call and result written a second time.
    { ...duplicateCall },
    { ...duplicateResult },
    { role: "assistant", content: "Paris is mild too." },
    { role: "user", content: "Book me a hotel there." },
    // A result whose call was never stored.
    { role: "tool", content: [{ type: "tool-result", toolCallId: "call_ghost", toolName: "book_hotel", output: { type: "json", value: { booked: true } } }] },
    { role: "assistant", content: "Booked." },
    { role: "user", content: "And the train?" },
    ...(options.unanswered === false
      ? []
      : ([
          // The stream was aborted after the call: no result was ever stored.
          { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_aborted", toolName: "train", input: { to: "Paris" } }] },
        ] satisfies ModelMessage[])),
    { role: "user", content: "Sorry, the page reloaded. Which trains go to Paris tomorrow?" },
  ];
  return { messages, duplicateCallId: "call_dup", orphanCallId: "call_ghost", unansweredCallId: "call_aborted" };
}
