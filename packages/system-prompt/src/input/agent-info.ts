// The agent the prompt speaks for. Callers map their own agent definitions onto this shape; the
// package depends on no host application's types.

export interface AgentInfo {
  readonly id: string;
  readonly name: string;
  readonly role: string;
  readonly identity?: string;
  readonly communicationStyle?: string;
  readonly principles?: ReadonlyArray<string>;
  /** A precompiled system prompt: when it has any non-blank text, it replaces the persona section verbatim. */
  readonly systemPrompt?: string;
}
