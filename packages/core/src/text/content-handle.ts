// A stable name for a text, so a cut or offloaded original can be asked for again. Computed without
// node:crypto because core also runs in browsers and edge runtimes.

const HANDLE_PREFIX = "ctx_";

/**
 * A stable handle for a text: "ctx_" + 16 hex digits of the 64-bit FNV-1a hash of its UTF-16 code
 * units (one 16-bit unit per step). Same text, same handle.
 */
export function contentHandle(text: string): string {
  // 64-bit arithmetic in four 16-bit limbs (v0 lowest): exact in doubles, fast on multi-MB strings.
  // Offset basis 0xcbf29ce484222325; prime 0x100000001b3 = 2^40 + 0x1b3.
  let v0 = 0x2325;
  let v1 = 0x8422;
  let v2 = 0x9ce4;
  let v3 = 0xcbf2;
  for (let index = 0; index < text.length; index++) {
    v0 ^= text.charCodeAt(index);
    const t0 = v0 * 0x1b3;
    const t1 = v1 * 0x1b3 + (t0 >>> 16);
    const t2 = v2 * 0x1b3 + v0 * 0x100 + (t1 >>> 16);
    const t3 = v3 * 0x1b3 + v1 * 0x100 + (t2 >>> 16);
    v0 = t0 & 0xffff;
    v1 = t1 & 0xffff;
    v2 = t2 & 0xffff;
    v3 = t3 & 0xffff;
  }
  return HANDLE_PREFIX + hex4(v3) + hex4(v2) + hex4(v1) + hex4(v0);
}

function hex4(limb: number): string {
  return limb.toString(16).padStart(4, "0");
}
