// The importers and the "ai-sdk" renderer.
export {};
