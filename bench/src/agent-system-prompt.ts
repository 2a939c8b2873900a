// The system prompt of every agent-loop benchmark, in a file of its own so that a child process can
// import it without the LangChain baseline.
export const AGENT_SYSTEM_PROMPT = "You are a senior build engineer. Read the code before changing it, and explain what you changed.";
