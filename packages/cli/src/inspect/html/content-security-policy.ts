// The page's Content-Security-Policy: nothing may be fetched, framed or submitted; the one inline
// <style> element is allowed by its hash, so no other style (nor any script) runs. The page has no
// script at all: the timeline filter is CSS.
import { createHash } from "node:crypto";

export function contentSecurityPolicy(style: string): string {
  const styleHash = createHash("sha256").update(style, "utf8").digest("base64");
  return `default-src 'none'; style-src 'sha256-${styleHash}'; base-uri 'none'; form-action 'none'`;
}
