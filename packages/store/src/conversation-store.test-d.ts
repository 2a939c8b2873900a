// The public surface of ConversationStore.append: an optional onWritten, which a store written before
// it (append with two parameters) still satisfies.
import { expectTypeOf, test } from "vitest";
import type { AppendOptions, ConversationStore, StoredMessage } from "./index.js";
import type { JsonlStore } from "./jsonl/jsonl-store.js";

test("append takes an optional { onWritten }", () => {
  expectTypeOf<AppendOptions>().toEqualTypeOf<{ readonly onWritten?: () => void }>();
  expectTypeOf<ConversationStore["append"]>().parameter(2).toEqualTypeOf<AppendOptions | undefined>();
  expectTypeOf<ConversationStore["append"]>().parameter(1).toEqualTypeOf<StoredMessage | ReadonlyArray<StoredMessage>>();
  expectTypeOf<JsonlStore>().toExtend<ConversationStore>();
});

test("a store whose append knows nothing of onWritten is still a ConversationStore", () => {
  type OlderStore = Omit<ConversationStore, "append"> & { append(conversationId: string, messages: StoredMessage | ReadonlyArray<StoredMessage>): Promise<void> };
  expectTypeOf<OlderStore>().toExtend<ConversationStore>();
});
