import { useEffect } from 'react';

/** react-admin's row checkbox in a list with bulk actions (DatagridRow's `select-item`). */
const ROW_CHECKBOX = '.select-item';

/**
 * Gives every list row's selection checkbox its name. react-admin 5's DatagridRow passes `aria-label` to
 * MUI's Checkbox as a top-level prop, which MUI puts on the wrapping <span> (where the attribute is not
 * allowed) and not on the <input> a screen reader announces, so each row read as an unnamed checkbox (axe:
 * `label`, `aria-prohibited-attr`). Until react-admin passes it through `inputProps`, the label is moved
 * onto the input whenever react-admin (re)sets it, e.g. after a language switch.
 */
export function useRowCheckboxLabels(): void {
  useEffect(() => {
    const fix = (root: ParentNode) => {
      for (const wrapper of root.querySelectorAll<HTMLElement>(`${ROW_CHECKBOX}[aria-label]`)) {
        const input = wrapper.querySelector('input');
        if (!input) continue;
        input.setAttribute('aria-label', wrapper.getAttribute('aria-label')!);
        wrapper.removeAttribute('aria-label');
      }
    };
    fix(document);
    const observer = new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        const target = mutation.target;
        if (target instanceof Element && (mutation.type === 'childList' || target.matches(ROW_CHECKBOX)))
          fix(target.parentElement ?? target);
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, attributeFilter: ['aria-label'] });
    return () => observer.disconnect();
  }, []);
}
