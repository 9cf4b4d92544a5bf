/**
 * The line under a command's record and under an MCP server in Settings: quiet by default,
 * amber with a ⚠ that only repeats the words when it deserves a look.
 */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WarningLine } from '../../../../../renderer/src/components/frame/WarningLine';

describe('a warning line', () => {
  it('is a quiet line with no mark when there is nothing to warn of', () => {
    render(
      <WarningLine className="its-line" loud={false}>
        Confined: writes only in ~/src/app
      </WarningLine>,
    );
    const line = screen.getByText('Confined: writes only in ~/src/app');
    expect(line).toHaveClass('its-line');
    expect(line).not.toHaveClass('its-line-warning');
    expect(line.textContent).not.toContain('⚠');
  });

  it('when loud, gets its warning class and a ⚠ kept from screen readers: the words say it', () => {
    const { container } = render(
      <WarningLine className="its-line" loud>
        Unconfined: it can change anything you can
      </WarningLine>,
    );
    const line = container.querySelector('p')!;
    expect(line).toHaveClass('its-line', 'its-line-warning');
    expect(line).toHaveTextContent('⚠ Unconfined: it can change anything you can');
    expect(screen.getByText('⚠')).toHaveAttribute('aria-hidden', 'true');
  });
});
