// The widths of the budget bar's segments, as CSS rules for the page's one <style> element: the
// Content-Security-Policy allows that element by its hash and refuses style attributes.
import type { InspectionBudget } from "../inspection.js";

export function budgetBarStyle(budget: InspectionBudget): string {
  // The segments add up to maxTokens; over budget they add up to more, and the bar shows the sum.
  const total = Math.max(budget.maxTokens, budget.segments.reduce((sum, segment) => sum + segment.tokens, 0));
  return budget.segments
    .map((segment, index) => {
      const width = total === 0 ? 0 : (segment.tokens / total) * 100;
      return `.budget-bar .s${index}{width:${Number(width.toFixed(4))}%}`;
    })
    .join("\n");
}
