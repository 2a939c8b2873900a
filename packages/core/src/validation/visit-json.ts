// Walks a request as JSON.stringify would see it, calling back for every value with its path
// ("messages[3].content[0].text"). Cycles are reported instead of followed.

export interface JsonVisitor {
  value?(value: unknown, path: string, key: string | number | undefined): void;
  cycle?(path: string): void;
}

function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path === "" ? key : `${path}.${key}`;
}

export function visitJson(root: unknown, visitor: JsonVisitor, rootPath = ""): void {
  const open = new Set<object>();
  const visit = (value: unknown, path: string, key: string | number | undefined): void => {
    visitor.value?.(value, path, key);
    if (typeof value !== "object" || value === null) return;
    if (open.has(value)) {
      visitor.cycle?.(path);
      return;
    }
    open.add(value);
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) visit(value[index], join(path, index), index);
    } else {
      for (const [name, child] of Object.entries(value)) {
        // JSON.stringify leaves out undefined, function and symbol properties of objects: harmless.
        if (child === undefined || typeof child === "function" || typeof child === "symbol") continue;
        visit(child, join(path, name), name);
      }
    }
    open.delete(value);
  };
  visit(root, rootPath, undefined);
}
