/**
 * axe-core over the page as it is now, through @axe-core/playwright (it takes playwright-core
 * as its peer, so Debian's Chromium serves). Every rule axe ships runs, best practices
 * included: "page-has-heading-one" is one of those, and the issue that asked for this check
 * named it.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Result } from 'axe-core';
import type { Page } from 'playwright-core';

export type AxeViolation = Result;

/** How many of a violation's nodes a report names: enough to find them, short enough to read. */
const NODES_SHOWN = 3;

export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations;
}

/**
 * A report a person can fix from: each violation's id, impact and help, then its first
 * nodes' selectors with axe's own summary of what failed there (for color-contrast, the
 * two colours and the ratio).
 */
export function describeViolations(where: string, violations: readonly AxeViolation[]): string {
  const lines = [`${where}: ${violations.length} axe violation(s)`];
  for (const v of violations) {
    lines.push(`  ${v.id} (${v.impact ?? 'no impact given'}): ${v.help} [${v.nodes.length} node(s)]`);
    for (const node of v.nodes.slice(0, NODES_SHOWN)) {
      const why = (node.failureSummary ?? '').split('\n').slice(1, 3).join(' ').trim();
      lines.push(`    ${node.target.join(' >> ')}${why ? `: ${why}` : ''}`);
    }
    if (v.nodes.length > NODES_SHOWN) lines.push(`    … and ${v.nodes.length - NODES_SHOWN} more`);
  }
  return lines.join('\n');
}
