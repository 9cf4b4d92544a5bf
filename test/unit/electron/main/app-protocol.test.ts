/**
 * gatehouse:// serves the built renderer and nothing else: no path out of its folder, and
 * the CSP on every response.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rendererResponse } from '../../../../electron/main/app-protocol.js';
import { contentSecurityPolicy } from '../../../../electron/main/csp.js';

let root: string;
let renderer: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-protocol-'));
  renderer = path.join(root, 'renderer');
  await fs.mkdir(path.join(renderer, 'assets'), { recursive: true });
  await fs.writeFile(path.join(renderer, 'index.html'), '<!doctype html><p>app</p>');
  await fs.writeFile(path.join(renderer, 'assets', 'index.js'), 'console.log(1)');
  await fs.writeFile(path.join(root, 'secret.txt'), 'secret');
});
afterAll(() => fs.rm(root, { recursive: true, force: true }));

describe('the app scheme', () => {
  it('serves the renderer with its type and the CSP', async () => {
    const page = await rendererResponse(renderer, 'gatehouse://app/index.html');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<p>app</p>');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    const script = await rendererResponse(renderer, 'gatehouse://app/assets/index.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it.each([
    'gatehouse://app/../secret.txt',
    'gatehouse://app/%2e%2e/secret.txt',
    'gatehouse://app/assets/..%2f..%2fsecret.txt',
    'gatehouse://app/%00',
    'gatehouse://other/index.html',
    'gatehouse://app/missing.js',
    'gatehouse://app/assets',
    'https://app/index.html',
  ])('answers %s with a 404 and nothing of the file', async (url) => {
    const reply = await rendererResponse(renderer, url);
    expect(reply.status).toBe(404);
    expect(await reply.text()).not.toContain('secret');
    expect(reply.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
  });
});
