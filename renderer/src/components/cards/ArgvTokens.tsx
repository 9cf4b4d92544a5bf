/**
 * An argv as separate bordered chips, one per element, so `["rm", "-rf x"]` and
 * `["rm", "-rf", "x"]` can never look alike (UI.md card rule 2).
 */
import { VisibleText } from './VisibleText';
import './argv-tokens.css';

export function ArgvTokens({ argv, compact = false }: { argv: readonly string[]; compact?: boolean }) {
  return (
    <ol className={`chip-list${compact ? ' argv-tokens-compact' : ''}`} aria-label="Command and arguments">
      {argv.map((token, i) => (
        <li key={i} className="argv-token">
          <VisibleText text={token} />
        </li>
      ))}
    </ol>
  );
}
