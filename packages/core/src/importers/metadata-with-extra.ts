// An item's metadata from the fields an importer read plus whatever it left unread, called last so
// that every field read before it counts as used.
import type { ItemMetadata } from "../model/item-metadata.js";
import type { ExtraFields } from "./extra-fields.js";
import { type WithoutUndefined, withoutUndefined } from "./without-undefined.js";

type KnownMetadata = { [K in Exclude<keyof ItemMetadata, "extra">]?: ItemMetadata[K] | undefined };

export function metadataWithExtra(known: KnownMetadata, extra: ExtraFields): ItemMetadata {
  const metadata: WithoutUndefined<KnownMetadata> & Pick<ItemMetadata, "extra"> = withoutUndefined(known);
  const kept = extra.toRecord();
  if (kept !== undefined) metadata.extra = kept;
  return metadata;
}
