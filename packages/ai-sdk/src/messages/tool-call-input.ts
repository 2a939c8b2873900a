// A tool call's arguments as the AI SDK's tool-call `input`. ctxpipe keeps arguments as JSON text;
// text that is not JSON (a call cut off mid-stream) is sent as the text itself, which is how the AI
// SDK itself carries the input of a call it could not parse.

export function toolCallInput(argumentsText: string): unknown {
  if (argumentsText.trim() === "") return {};
  try {
    return JSON.parse(argumentsText);
  } catch {
    return argumentsText;
  }
}
