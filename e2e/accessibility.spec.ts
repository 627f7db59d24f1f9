import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { CONSOLE_SIZES, sizeName } from './harness/fit';
import { SCREENS, tourScreens, type ScreenName } from './harness/tour';

// axe-core on every screen (all its rules: WCAG 2.x A/AA and best practices) at each of the three
// screen sizes (a layout that reflows can overlap, clip or shrink what it shows): no moderate,
// serious or critical violation anywhere; minor ones are listed in the test output.

let apps: RunningConsole[] = [];

test.afterAll(async () => {
  await stopConsoles(...apps);
  apps = [];
});

interface Finding {
  readonly screen: ScreenName;
  readonly rule: string;
  readonly impact: string;
  readonly help: string;
  readonly targets: readonly string[];
}

function describe(finding: Finding): string {
  return `${finding.screen}: [${finding.impact}] ${finding.rule} — ${finding.help} (${finding.targets.join(', ')})`;
}

for (const size of CONSOLE_SIZES) {
  test(`every screen at ${sizeName(size)} passes axe-core with no moderate, serious or critical violation`, async ({ page }, testInfo) => {
    test.slow(); // axe takes seconds per screen on a busy two-core machine
    const app = await startConsole();
    apps.push(app);
    await page.setViewportSize(size);
    const findings: Finding[] = [];
    const visited = await tourScreens(page, app, async (screen, on) => {
      await on.setViewportSize(size);
      const results = await new AxeBuilder({ page: on }).analyze();
      expect(results.passes.length, `axe ran its rules on ${screen}`).toBeGreaterThan(0);
      for (const violation of results.violations) {
        findings.push({
          screen,
          rule: violation.id,
          impact: violation.impact ?? 'unknown',
          help: violation.help,
          targets: violation.nodes.map((node) => node.target.join(' ')),
        });
      }
    });
    expect(visited).toEqual([...SCREENS]);

    const blocking = findings.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical' || finding.impact === 'moderate');
    const other = findings.filter((finding) => !blocking.includes(finding));
    for (const finding of other) {
      console.log(`axe (not blocking) ${describe(finding)}`);
      testInfo.annotations.push({ type: `axe ${finding.impact}`, description: describe(finding) });
    }
    if (other.length === 0) console.log(`axe: no minor findings on any screen at ${sizeName(size)}`);
    expect(blocking.map(describe), 'moderate, serious or critical axe violations').toEqual([]);
  });
}
