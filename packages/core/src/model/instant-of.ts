// The instant a createdAt names, in epoch milliseconds. An ISO date-time without an offset is read as
// UTC: Date.parse would read it as local time, and the order of a conversation must not depend on the
// time zone of the machine that builds it.
const ISO_WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

export function instantOf(createdAt: string): number {
  return Date.parse(ISO_WITHOUT_OFFSET.test(createdAt) ? `${createdAt}Z` : createdAt);
}
