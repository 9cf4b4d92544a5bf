/**
 * Which of the folders of the person's own files outside home (/mnt, /media, /srv,
 * /var/tmp) a command's profile hides: each that exists, unless a place the person showed
 * is it or holds it; never one that is a link, which lands elsewhere (/var/tmp -> /tmp).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { personalPlacesToHide } from '../../../../../electron/core/sandbox/profile.js';

let root: string;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-personal-')));
  await fs.mkdir(path.join(root, 'mnt'));
  await fs.mkdir(path.join(root, 'srv'));
  await fs.symlink('/tmp', path.join(root, 'vartmp'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('the personal folders outside home', () => {
  const places = () => ['mnt', 'srv', 'vartmp', 'media'].map((p) => path.join(root, p));

  it('are hidden where they exist, but one that is a link', () => {
    expect(personalPlacesToHide([], places())).toEqual([path.join(root, 'mnt'), path.join(root, 'srv')]);
  });

  it('are shown when the person showed one, or a folder holding one, but not for a place inside one', () => {
    expect(personalPlacesToHide([path.join(root, 'mnt')], places())).toEqual([path.join(root, 'srv')]);
    expect(personalPlacesToHide([root], places())).toEqual([]);
    expect(personalPlacesToHide([path.join(root, 'mnt', 'disk')], places())).toEqual([
      path.join(root, 'mnt'),
      path.join(root, 'srv'),
    ]);
  });
});
