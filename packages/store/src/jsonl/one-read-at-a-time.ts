// Reads of one file run one after the other, so two loads never extend the same cache entry twice;
// a failed read does not stop the next one.
export class OneReadAtATime {
  readonly #reading = new Map<string, Promise<unknown>>();

  run<T>(path: string, read: () => Promise<T>): Promise<T> {
    const previous = this.#reading.get(path) ?? Promise.resolve();
    const next = previous.then(read, read);
    this.#reading.set(path, next);
    void next
      .finally(() => {
        if (this.#reading.get(path) === next) this.#reading.delete(path);
      })
      .catch(() => undefined);
    return next;
  }
}
