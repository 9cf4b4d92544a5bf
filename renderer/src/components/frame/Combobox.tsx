/**
 * A text field with a list of suggestions, after WAI-ARIA's editable combobox with list
 * autocomplete: focus stays in the field, ↑ ↓ move the pick (aria-activedescendant names
 * it), Enter takes the pick, and anything typed stands as it is: the list only suggests.
 *
 * Two ways to show the list. A list that `closes` opens on typing, the arrows or a click,
 * and closes on Esc (that Esc closes only the list, not the dialog around it), when the
 * field loses focus, and once a suggestion is taken. Otherwise the list shows whenever
 * there is something to suggest. With `tabTakes`, Tab takes the pick (or the first).
 */
import { useEffect, useState, type KeyboardEvent, type ReactNode } from 'react';

interface ComboboxProps<T> {
  /** The field's id, which its label names. */
  id: string;
  label: string;
  value: string;
  /** The person typed: the text as it now stands. */
  onEdit: (text: string) => void;
  /** The person took a suggestion, with Enter, Tab or a click. */
  onTake: (option: T) => void;
  options: readonly T[];
  optionKey: (option: T) => string;
  renderOption: (option: T) => ReactNode;
  optionClassName?: string;
  listId: string;
  listLabel: string;
  listClassName: string;
  /** Option i's id is this followed by i (the field's aria-activedescendant names it). */
  optionIdPrefix: string;
  closes?: boolean;
  tabTakes?: boolean;
  /** Where the dialog around it puts focus first. */
  autoFocus?: boolean;
  className?: string;
  placeholder?: string;
  describedBy?: string;
}

export function Combobox<T>(props: ComboboxProps<T>) {
  const { id, label, value, options, listId, optionIdPrefix, closes = false } = props;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState<number | null>(null);
  // `open` is what the person asked for; a list that does not close ignores it.
  const expanded = (open || !closes) && options.length > 0;
  const shown = expanded && active !== null && active < options.length ? active : null;
  const optionId = (i: number) => `${optionIdPrefix}${i}`;

  useEffect(() => {
    if (shown !== null) document.getElementById(`${optionIdPrefix}${shown}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [shown, optionIdPrefix]);

  const edit = (text: string) => {
    props.onEdit(text);
    setOpen(true);
    setActive(null);
  };
  const take = (option: T) => {
    props.onTake(option);
    setOpen(false);
    setActive(null);
  };
  const onKeyDown = comboboxKeys({
    options,
    shown,
    expanded,
    closes,
    tabTakes: props.tabTakes ?? false,
    take,
    setOpen,
    setActive,
  });

  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        data-autofocus={props.autoFocus || undefined}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={shown !== null ? optionId(shown) : undefined}
        aria-describedby={props.describedBy}
        className={props.className}
        placeholder={props.placeholder}
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => edit(e.target.value)}
        onKeyDown={onKeyDown}
        onClick={() => setOpen((o) => !o)}
        onBlur={() => setOpen(false)}
      />
      {expanded && (
        <ul id={listId} role="listbox" aria-label={props.listLabel} className={props.listClassName}>
          {options.map((option, i) => (
            <li
              key={props.optionKey(option)}
              id={optionId(i)}
              role="option"
              aria-selected={i === shown}
              className={props.optionClassName}
              onMouseDown={(e) => {
                // Keeps focus in the field, so the list is not closed before the click lands.
                e.preventDefault();
                take(option);
              }}
            >
              {props.renderOption(option)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

interface KeyState<T> {
  options: readonly T[];
  shown: number | null;
  expanded: boolean;
  closes: boolean;
  tabTakes: boolean;
  take: (option: T) => void;
  setOpen: (open: boolean) => void;
  setActive: (index: number) => void;
}

/** The field's keys: the arrows pick, Enter (and Tab, if asked) takes, Esc closes a list that closes. */
function comboboxKeys<T>({ options, shown, expanded, closes, tabTakes, take, setOpen, setActive }: KeyState<T>) {
  const count = options.length;
  return (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      // A list that shows by itself has nothing to open: with nothing to pick, the arrows move the caret.
      if (count === 0 && !closes) return;
      event.preventDefault();
      setOpen(true);
      if (count === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive(shown === null ? (step > 0 ? 0 : count - 1) : (shown + step + count) % count);
    } else if (event.key === 'Tab' && tabTakes && !event.shiftKey && count > 0) {
      event.preventDefault();
      take(options[shown ?? 0]!);
    } else if (event.key === 'Enter' && shown !== null) {
      event.preventDefault();
      take(options[shown]!);
    } else if (event.key === 'Escape' && closes && expanded) {
      event.stopPropagation();
      setOpen(false);
    }
  };
}
