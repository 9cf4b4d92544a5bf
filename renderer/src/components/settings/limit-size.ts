/**
 * The checkpoint limit as a person types it: "2 GiB", "500 MiB", "1.5" (GiB when no unit is
 * given). MB, GB and TB are decimal, MiB, GiB and TiB binary, as their names say. The core
 * checks the range (64 MiB to 1 TiB); this only reads the words.
 */
const UNITS: Record<string, number> = {
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
};

export function parseLimit(text: string): { bytes: number } | { error: string } {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = (match?.[2] || 'gib').toLowerCase();
  const factor = UNITS[unit];
  if (!match || factor === undefined) return { error: 'Type a size such as 2 GiB or 500 MiB.' };
  return { bytes: Math.round(Number(match[1]) * factor) };
}
