// A few lines of semver instead of a dependency: the packages here use plain x.y.z versions only.

export type BumpType = "major" | "minor" | "patch";

const bumpRank: Readonly<Record<BumpType, number>> = { patch: 1, minor: 2, major: 3 };
const plainVersion = /^(\d+)\.(\d+)\.(\d+)$/;

export function isPlainVersion(version: string): boolean {
  return plainVersion.test(version);
}

/** Loosely semver: x.y.z with an optional prerelease and build part. */
export function isSemver(version: string): boolean {
  return /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(version);
}

function parts(version: string): [number, number, number] {
  const match = plainVersion.exec(version);
  if (!match) throw new Error(`not a plain x.y.z version: ${version}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** The version `changeset version` gives `version` for `bump` (semver's inc, no 0.x special case). */
export function bumpVersion(version: string, bump: BumpType): string {
  const [major, minor, patch] = parts(version);
  if (bump === "major") return `${major + 1}.0.0`;
  if (bump === "minor") return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

export function higherBump(a: BumpType | undefined, b: BumpType): BumpType {
  return a === undefined || bumpRank[b] > bumpRank[a] ? b : a;
}

/** Negative, zero or positive as `a` is lower than, equal to or higher than `b`. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/**
 * Whether `version` satisfies a peer range of the form ">=a.b.c <N" (the only form the packages use
 * for peers on each other). Other forms throw, so the check cannot pass by not understanding a range.
 */
export function satisfiesPeerRange(version: string, range: string): boolean {
  const match = /^>=(\d+\.\d+\.\d+) <(\d+)$/.exec(range);
  if (!match) throw new Error(`peer range not of the form ">=x.y.z <N": ${range}`);
  return compareVersions(version, match[1]!) >= 0 && parts(version)[0] < Number(match[2]);
}
