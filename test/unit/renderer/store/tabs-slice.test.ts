import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../../renderer/src/store/app-store';
import { TABS_STORAGE_KEY } from '../../../../renderer/src/store/tabs-slice';

describe('tabs', () => {
  it('opens, activates and closes tabs; closing activates the neighbour', () => {
    const store = createAppStore(window.localStorage);
    const s = () => store.getState();
    s().openTab('a');
    s().openTab('b');
    s().openTab('c');
    s().openTab('a');
    expect(s().openIds).toEqual(['a', 'b', 'c']);
    expect(s().activeId).toBe('a');
    s().activateTab('b');
    s().closeTab('b');
    expect(s().openIds).toEqual(['a', 'c']);
    expect(s().activeId).toBe('c');
  });

  it('remembers the tabs across a reload, through localStorage', () => {
    window.localStorage.clear();
    const first = createAppStore(window.localStorage);
    first.getState().openTab('a');
    first.getState().openTab('b');
    first.getState().activateTab('a');
    expect(JSON.parse(window.localStorage.getItem(TABS_STORAGE_KEY)!)).toEqual({ openIds: ['a', 'b'], activeId: 'a' });
    const again = createAppStore(window.localStorage);
    expect(again.getState().openIds).toEqual(['a', 'b']);
    expect(again.getState().activeId).toBe('a');
  });

  it('survives a damaged stored value with no tabs', () => {
    window.localStorage.setItem(TABS_STORAGE_KEY, '{not json');
    expect(createAppStore(window.localStorage).getState().openIds).toEqual([]);
  });

  it('Ctrl+9 style index 8 is the last tab', () => {
    window.localStorage.clear();
    const store = createAppStore(window.localStorage);
    ['a', 'b', 'c'].forEach((id) => store.getState().openTab(id));
    store.getState().activateIndex(8);
    expect(store.getState().activeId).toBe('c');
    store.getState().activateIndex(0);
    expect(store.getState().activeId).toBe('a');
    store.getState().activateIndex(5);
    expect(store.getState().activeId).toBe('a');
  });
});
