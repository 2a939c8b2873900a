// The offloaded records and token counts the kill -9 child writes, so the test can check what it read back.

/** A text that grows with the handle's number, up to about 200 kB, so kills land inside big writes too. */
export const offloadedRecord = (handle: string) => ({
  handle,
  itemId: `item-${handle}`,
  text: `${handle}:${"0123456789".repeat((Number(handle.split("_").at(-1)) * 977) % 20_000)}`,
  createdAt: "2025-03-01T12:00:00.000Z",
});

/** A token count derived from its key, so a count read back can be checked. */
export const tokenCountRecord = (key: string) => ({ encoding: "o200k_base", key, tokens: Number(key.split("_").at(-1)) * 3 });
