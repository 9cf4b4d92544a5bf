/**
 * An OpenAI-compatible model on 127.0.0.1 that streams every reply slowly: one word each
 * `intervalMs`, for `words` words, in the fake model's own wire frames. For the frame-rate
 * bench, where ten sessions must still be streaming while the page is measured.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { openaiWire } from '../../fake-model/openai-wire.js';

export interface SlowStreamModel {
  openaiBaseURL: string;
  /** Requests answered so far. */
  requests(): number;
  close(): Promise<void>;
}

async function stream(res: ServerResponse, index: number, words: number, intervalMs: number): Promise<void> {
  const text = Array.from({ length: words }, (_, i) => (i % 40 === 39 ? `word${i}.\n\n` : `word${i} `));
  const { frames } = openaiWire.stream({ text }, index);
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const frame of frames) {
    if (res.destroyed) return;
    res.write(frame);
    await sleep(intervalMs);
  }
  res.end();
}

export async function startSlowStreamModel(words: number, intervalMs: number): Promise<SlowStreamModel> {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => void stream(res, count++, words, intervalMs).catch(() => res.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    openaiBaseURL: `http://127.0.0.1:${port}/v1`,
    requests: () => count,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
