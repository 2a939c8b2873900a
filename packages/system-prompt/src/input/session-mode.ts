/** The session modes: agent mode uses the chat base rules; run mode adds the run directive. */
export const SESSION_MODES = ["chat", "agent", "run"] as const;

export type SessionMode = (typeof SESSION_MODES)[number];
