// Defensive reading of a request the Gemini rules check. The rules run on any value (a hand-built
// request, a REST body, garbage), so every accessor accepts unknown and never throws.

export type JsonRecord = Record<string, unknown>;

export function asRecord(value: unknown): JsonRecord | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonRecord) : undefined;
}

export function asArray(value: unknown): ReadonlyArray<unknown> | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** request.contents, or undefined when it is not an array. */
export function contentsOf(request: unknown): ReadonlyArray<unknown> | undefined {
  return asArray(asRecord(request)?.contents);
}

/** Calls back for every content of the request, with its index. */
export function forEachContent(request: unknown, visit: (content: unknown, index: number) => void): void {
  contentsOf(request)?.forEach(visit);
}

/** A content's parts, or [] when it has none. */
export function partsOf(content: unknown): ReadonlyArray<unknown> {
  return asArray(asRecord(content)?.parts) ?? [];
}

/** The role as the API reads it: a content without one is a user content. */
export function effectiveRole(content: unknown): unknown {
  return asRecord(content)?.role ?? "user";
}

/** Indexes of the parts that carry the given field (functionCall, functionResponse…). */
export function partIndexesWith(content: unknown, field: string): number[] {
  const indexes: number[] = [];
  partsOf(content).forEach((part, index) => {
    if (asRecord(part)?.[field] !== undefined) indexes.push(index);
  });
  return indexes;
}

/** A function-call turn: a content with at least one functionCall part. */
export function isFunctionCallTurn(content: unknown): boolean {
  return partIndexesWith(content, "functionCall").length > 0;
}

/** A function-response turn: a content with at least one functionResponse part. */
export function isFunctionResponseTurn(content: unknown): boolean {
  return partIndexesWith(content, "functionResponse").length > 0;
}

/** Where a REST body or the SDK's parameters keep a config field (systemInstruction, tools). */
export function configField(request: unknown, field: string): { value: unknown; path: string } | undefined {
  const record = asRecord(request);
  const config = asRecord(record?.config);
  if (config?.[field] !== undefined) return { value: config[field], path: `config.${field}` };
  if (record?.[field] !== undefined) return { value: record[field], path: field };
  return undefined;
}

/** The place of a content, as rules report it. */
export function at(index: number, rest = ""): { path: string; messageIndex: number } {
  return { path: `contents[${index}]${rest}`, messageIndex: index };
}

export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? JSON.stringify(value) : typeof value;
}
