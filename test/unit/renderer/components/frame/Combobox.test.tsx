/**
 * The one combobox (the model id in Settings, the folder in Open a folder): an editable
 * field whose list only suggests. What the two ways of showing the list do with the keys,
 * a click and leaving the field.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Combobox } from '../../../../../renderer/src/components/frame/Combobox';

const FRUIT = ['apple', 'apricot', 'banana'];

/** A field over FRUIT, filtered by what is typed, inside an element that records Esc and Tab. */
function Field({ closes = false, tabTakes = false, onOuterKey = (() => {}) as (key: string) => void }) {
  const [value, setValue] = useState('');
  const options = FRUIT.filter((f) => f.startsWith(value));
  return (
    <div onKeyDown={(e) => onOuterKey(e.key)}>
      <Combobox
        id="fruit"
        label="Fruit"
        value={value}
        onEdit={setValue}
        onTake={(f: string) => setValue(`${f}!`)}
        options={options}
        optionKey={(f) => f}
        renderOption={(f) => f}
        listId="fruit-list"
        listLabel="Fruits"
        listClassName="suggestions"
        optionIdPrefix="fruit-"
        closes={closes}
        tabTakes={tabTakes}
      />
      <button type="button">Elsewhere</button>
    </div>
  );
}

const field = () => screen.getByRole('combobox', { name: 'Fruit' });
const list = () => screen.queryByRole('listbox', { name: 'Fruits' });

describe('a combobox whose list shows whenever it has suggestions', () => {
  it('lists them at once, points the field at the pick, and wraps around with the arrows', async () => {
    render(<Field />);
    expect(field()).toHaveAttribute('aria-expanded', 'true');
    expect(field()).toHaveAttribute('aria-controls', 'fruit-list');
    await userEvent.type(field(), 'ap');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['apple', 'apricot']);
    await userEvent.keyboard('{ArrowUp}');
    expect(field()).toHaveAttribute('aria-activedescendant', 'fruit-1');
    await userEvent.keyboard('{ArrowDown}');
    expect(field()).toHaveAttribute('aria-activedescendant', 'fruit-0');
    expect(screen.getByRole('option', { name: 'apple' })).toHaveAttribute('aria-selected', 'true');
  });

  it('takes the pick with Enter, and typing forgets the pick', async () => {
    render(<Field />);
    await userEvent.type(field(), 'b{ArrowDown}');
    await userEvent.type(field(), 'a');
    expect(field()).not.toHaveAttribute('aria-activedescendant');
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(field()).toHaveValue('banana!');
  });

  it('lets the arrows move the caret when there is nothing to suggest', () => {
    render(<Field />);
    fireEvent.change(field(), { target: { value: 'kiwi' } });
    expect(list()).toBeNull();
    expect(field()).toHaveAttribute('aria-expanded', 'false');
    expect(fireEvent.keyDown(field(), { key: 'ArrowDown' })).toBe(true);
  });

  it('takes the pick, or the first, with Tab only when asked to; Shift+Tab always leaves', async () => {
    const { unmount } = render(<Field />);
    await userEvent.type(field(), 'ap{Tab}');
    expect(field()).toHaveValue('ap');
    unmount();
    render(<Field tabTakes />);
    await userEvent.type(field(), 'ap{Tab}');
    expect(field()).toHaveValue('apple!');
    expect(field()).toHaveFocus();
    await userEvent.type(field(), '{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}');
    expect(fireEvent.keyDown(field(), { key: 'Tab', shiftKey: true })).toBe(true);
  });

  it('lets Esc through to the dialog around it, and stays open when the field loses focus', async () => {
    const outer = vi.fn();
    render(<Field onOuterKey={outer} />);
    await userEvent.type(field(), 'a{Escape}');
    expect(outer).toHaveBeenCalledWith('Escape');
    await userEvent.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(list()).not.toBeNull();
  });
});

describe('a combobox whose list closes', () => {
  it('opens on typing, on a click and on the arrows, and closes after a pick', async () => {
    render(<Field closes />);
    expect(list()).toBeNull();
    await userEvent.click(field());
    expect(list()).not.toBeNull();
    await userEvent.click(screen.getByRole('option', { name: 'apricot' }));
    expect(field()).toHaveValue('apricot!');
    expect(field()).toHaveFocus();
    expect(list()).toBeNull();
    await userEvent.clear(field());
    await userEvent.keyboard('{Escape}');
    expect(list()).toBeNull();
    await userEvent.keyboard('{ArrowDown}');
    expect(field()).toHaveAttribute('aria-activedescendant', 'fruit-0');
  });

  it('closes only the list on Esc, keeping it from the dialog around it; a second Esc goes through', async () => {
    const outer = vi.fn();
    render(<Field closes onOuterKey={outer} />);
    await userEvent.type(field(), 'a');
    await userEvent.keyboard('{Escape}');
    expect(list()).toBeNull();
    expect(outer).not.toHaveBeenCalledWith('Escape');
    await userEvent.keyboard('{Escape}');
    expect(outer).toHaveBeenCalledWith('Escape');
  });

  it('closes when the field loses focus', async () => {
    render(<Field closes />);
    await userEvent.type(field(), 'a');
    expect(list()).not.toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(list()).toBeNull();
  });
});
