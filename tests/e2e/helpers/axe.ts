import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core for the browser tests: one helper that every file calls, so every file checks the same rules the
 * same way. Rules and tags are axe's defaults (no rule is turned off and no element is excluded); only
 * violations whose impact is serious or critical fail a test.
 */
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Waits until no finite animation or CSS transition on the page is still running (`document.getAnimations()`):
 * an MUI label moving up or changing colour, a dialog or tooltip fading in, a toast sliding in. axe computes
 * colours from what is painted at that moment, so a half-faded text reads as low contrast. Animations that
 * repeat forever (a progress spinner, a skeleton's pulse) never end and are not waited for. Polled at every
 * frame, so a transition that another one starts (focus moving on) is waited for too. Fails after
 * `timeoutMs` naming what still runs, instead of looking at a moving page.
 */
export async function animationsSettled(page: Page, timeoutMs = 10_000): Promise<void> {
  try {
    await page.waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { polling: 'raf', timeout: timeoutMs },
    );
  } catch (err) {
    const running = await page
      .evaluate(() =>
        document
          .getAnimations()
          .filter((a) => a.playState === 'running')
          .map((a) => {
            const target = (a.effect as KeyframeEffect | null)?.target;
            const name = (a as CSSTransition).transitionProperty ?? (a as CSSAnimation).animationName ?? a.id;
            return `${name} on ${target ? `${target.tagName.toLowerCase()}#${target.id}.${target.className}` : '?'}`;
          }),
      )
      .catch(() => []);
    throw new Error(
      `Animations still running after ${timeoutMs} ms: ${running.join('; ') || '(none left)'} (${String(err)})`,
    );
  }
}

/**
 * The serious and critical axe violations on the page once its animations have ended, as
 * `rule: help (first three targets)` lines; `[]` when there is none.
 *
 * @example
 * expect(await seriousViolations(page)).toEqual([]);
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // A tooltip the last click left under the pointer (a sort header's) opens after its delay, possibly after
  // the wait below, and axe would read it mid-fade as low contrast: the pointer leaves the page's content first.
  await page.mouse.move(0, 0);
  await animationsSettled(page);
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as { violations: unknown[] };
    return result.violations;
  })) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')})`,
    );
}
