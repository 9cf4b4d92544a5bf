/** Sample texts for the fake tokenizer's ratios: prose, code, and dense text. */
import { createHash } from 'node:crypto';

export const ENGLISH = `The river had been rising for three days before anyone in the village thought to move the
grain out of the lower barns. By the time the council met, the water was already lapping at the
steps of the mill, and the miller, who had seen two floods in his life, was loading his cart in
silence. Nobody argued for long. The young men carried sacks up the hill until well after dark,
and the old women sat by the church door, counting what came past them and writing the numbers
in a ledger that would later be read aloud at the spring market. It was not the worst flood the
valley had known, but it was the first that people remembered together, and for years afterwards
they measured other troubles against it: a poor harvest was "not as bad as the river", a quarrel
between neighbours "nothing the river would have noticed".
`;

export const CODE = `export function summarize(orders: readonly Order[], since: Date): Summary {
  const recent = orders.filter((order) => order.placedAt >= since);
  const byCustomer = new Map<string, number>();
  for (const order of recent) {
    const total = order.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);
    byCustomer.set(order.customerId, (byCustomer.get(order.customerId) ?? 0) + total);
  }
  const ranked = [...byCustomer.entries()].sort(([, a], [, b]) => b - a);
  if (ranked.length === 0) {
    return { customers: 0, revenue: 0, top: undefined };
  }
  return {
    customers: ranked.length,
    revenue: ranked.reduce((sum, [, total]) => sum + total, 0),
    top: ranked[0]?.[0],
  };
}
`;

/** Forty SHA-256 digests, one a line: what a checksum listing or a lock file holds. */
export const HEX = Array.from(
  { length: 40 },
  (_, index) => `${createHash('sha256').update(String(index)).digest('hex')}\n`,
).join('');

export const JSON_TEXT = JSON.stringify(
  Array.from({ length: 20 }, (_, index) => ({
    id: index,
    path: `src/module${index}/index.ts`,
    size: 1024 + index * 37,
    ok: index % 3 !== 0,
  })),
);

export function bytesPerToken(text: string, tokens: number): number {
  return Buffer.byteLength(text, 'utf8') / tokens;
}
