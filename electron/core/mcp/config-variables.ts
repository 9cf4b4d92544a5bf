/**
 * `${VAR}` in an MCP server's config (SPEC §10), as Claude Code expands it, and a record of
 * which of the person's variables fed which field. That record is what a server's start
 * card names ("header Authorization ← $GITHUB_TOKEN"): a workspace file can ask for any
 * variable of the person's, and the card must say so without ever carrying the value.
 */

/** One field of a server's entry that took the person's variables, as written in the file. */
export interface McpFieldSource {
  /** "command", "args[2]", "env GITHUB_TOKEN", "cwd", "url", "header Authorization". */
  field: string;
  /** The field's text before expansion, `${VAR}` and all: what a card may show instead of the value. */
  written: string;
  /** The variables whose values went in (set ones only: a default taken from the file is no variable of the person's). */
  variables: string[];
}

/** Claude Code's `${VAR}` and `${VAR:-default}`; nothing else is expanded. */
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Expands the fields of one entry, remembering what fed each and what was missing. */
export class VariableExpander {
  /** Unset variables with no default: the entry cannot be used. */
  readonly missing = new Set<string>();
  readonly sources: McpFieldSource[] = [];

  constructor(private readonly env: Readonly<Record<string, string | undefined>>) {}

  /**
   * `${VAR}` and `${VAR:-default}`: a variable that is set, even to "", is used as it is;
   * the default applies only when it is unset.
   */
  expand(field: string, value: string): string {
    const used = new Set<string>();
    const expanded = value.replace(VARIABLE, (whole, name: string, fallback: string | undefined) => {
      // Own keys only: "${constructor}" must not find Object.prototype's.
      const set = Object.hasOwn(this.env, name) ? this.env[name] : undefined;
      if (set !== undefined) {
        used.add(name);
        return set;
      }
      if (fallback !== undefined) return fallback;
      this.missing.add(name);
      return whole;
    });
    if (used.size > 0) this.sources.push({ field, written: value, variables: [...used] });
    return expanded;
  }

  /** Why the entry cannot be used, or null. */
  missingMessage(): string | null {
    const names = [...this.missing];
    if (names.length === 0) return null;
    const list = names.map((name) => `\${${name}}`).join(', ');
    if (names.length === 1) return `environment variable ${list} is not set and has no default`;
    return `environment variables ${list} are not set and have no default`;
  }
}
