/**
 * Keeps the keyboard inside a dialog whose content changes under the focus: when the
 * focused control goes away (a button disabled while its call is on its way, or replaced
 * by words once it is done), the browser drops the focus to the page, where Escape and Tab
 * no longer reach the dialog. After every render of the caller, a lost focus goes to
 * `fallback`, an element of the dialog (tabIndex -1 for one that is not a control).
 */
import { useLayoutEffect, type RefObject } from 'react';

export function useFocusKept(fallback: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) fallback.current?.focus();
  });
}
