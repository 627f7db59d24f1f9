import { nextTick } from 'vue';

/**
 * Moves the focus to where the screen shown keeps it: its starting field (`data-autofocus`: the
 * card entry while dealing, the first count), else `fallback` (a selector: the screen's heading,
 * the button that opened a panel). After the next render; with `frames`, looked for over up to that
 * many animation frames more, for a screen that comes after a command's answer.
 */
export async function focusStartingField(fallback: string, frames = 0): Promise<void> {
  await nextTick();
  let target = document.querySelector<HTMLElement>('[data-autofocus]');
  for (let frame = 0; target === null && frame < frames; frame += 1) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    target = document.querySelector<HTMLElement>('[data-autofocus]');
  }
  (target ?? document.querySelector<HTMLElement>(fallback))?.focus();
}
