// Walks a request as JSON.stringify would see it, calling back for every value. The path
// ("messages[3].content[0].text") is built only when a visitor asks for it: a walk over a large
// request visits hundreds of thousands of values and reports almost none of them.
import { type CheckedMessages, nextChecked } from "./checked-from.js";

const ALL_MESSAGES: CheckedMessages = { from: 0, skip: undefined };

export interface JsonVisitor {
  /** `path()` gives where the value is; `key` is its property name or array index. */
  value?(value: unknown, key: string | number | undefined, path: () => string): void;
  cycle?(path: () => string): void;
}

/**
 * Remembers frozen subtrees a check found nothing wrong in. Renderers share frozen message objects
 * between builds, so an agent loop's rebuild checks only its new messages. Unfrozen values are always
 * walked: they could have changed since.
 */
export interface CleanSubtrees {
  readonly known: WeakSet<object>;
  /** How many problems the check has reported so far; a subtree is clean if this did not move. */
  reported(): number;
}

export function formatJsonPath(keys: ReadonlyArray<string | number>, rootPath = ""): string {
  let path = rootPath;
  for (const key of keys) path = typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`;
  return path;
}

/**
 * `messages`: which of the root's `messages` the walk reads (from an index on, less a stretch), for a
 * check that knows the others were checked already.
 */
export function visitJson(root: unknown, visitor: JsonVisitor, rootPath = "", clean?: CleanSubtrees, messages: CheckedMessages = ALL_MESSAGES): void {
  const open = new Set<object>();
  const keys: Array<string | number> = [];
  const path = () => formatJsonPath(keys, rootPath);
  const visit = (value: unknown, key: string | number | undefined): void => {
    visitor.value?.(value, key, path);
    if (typeof value !== "object" || value === null) return;
    if (open.has(value)) {
      visitor.cycle?.(path);
      return;
    }
    const remember = clean !== undefined && Object.isFrozen(value);
    if (remember && clean.known.has(value)) return;
    const before = remember ? clean.reported() : 0;
    open.add(value);
    if (Array.isArray(value)) {
      const rootMessages = keys.length === 1 && keys[0] === "messages" && (messages.from > 0 || messages.skip !== undefined);
      for (let index = rootMessages ? nextChecked(messages, messages.from) : 0; index < value.length; index = rootMessages ? nextChecked(messages, index + 1) : index + 1) {
        keys.push(index);
        visit(value[index], index);
        keys.pop();
      }
    } else {
      for (const name in value) {
        if (!Object.hasOwn(value, name)) continue;
        const child = (value as Record<string, unknown>)[name];
        // JSON.stringify leaves out undefined, function and symbol properties of objects: harmless.
        if (child === undefined || typeof child === "function" || typeof child === "symbol") continue;
        keys.push(name);
        visit(child, name);
        keys.pop();
      }
    }
    open.delete(value);
    if (remember && clean.reported() === before) clean.known.add(value);
  };
  visit(root, undefined);
}

/** Memory for `visitJson` of one check: `known` outlives builds, the count is the check's own. */
export function rememberClean<Report extends (violation: never) => void>(known: WeakSet<object>, report: Report): { clean: CleanSubtrees; report: Report } {
  let count = 0;
  const counting = ((violation: never) => {
    count++;
    report(violation);
  }) as Report;
  return { clean: { known, reported: () => count }, report: counting };
}
