// The six stages, in the order every build runs them, and the numeric positions taps use to order
// themselves inside a stage. Gaps between the constants leave room for plugins in between.
export const STAGES = ["compress", "filter", "repairOrphans", "insertSystem", "validate", "render"] as const;

export type StageName = (typeof STAGES)[number];

/** Names the stages carry in reports and error messages. */
export const STAGE_LABELS = {
  compress: "compress",
  filter: "filter",
  repairOrphans: "repair-orphans",
  insertSystem: "insert-system",
  validate: "validate",
  render: "render",
} as const satisfies Record<StageName, string>;

export type StageLabel = (typeof STAGE_LABELS)[StageName];

/** Tap positions inside a stage: lower runs first; equal positions run in registration order. */
export const STAGE = {
  FIRST: -1000,
  EARLY: -100,
  DEFAULT: 0,
  LATE: 100,
  LAST: 1000,
} as const;
