import { execFileSync } from 'node:child_process';
import { mkdir, realpath, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { SKILL_MAX_BYTES, SKILL_NAME_MAX_CHARS, SKILL_DESCRIPTION_MAX_CHARS } from '../../../../../shared/limits.js';
import { findSkills, loadSkill, skillRoots, type SkillRoot } from '../../../../../electron/core/skills/skills.js';
import { useTempDir } from '../log/temp-dir.js';

const tmp = useTempDir();
let ws: string;
let home: string;
let roots: SkillRoot[];

beforeEach(async () => {
  const base = await realpath(tmp.path);
  ws = path.join(base, 'ws');
  home = path.join(base, 'home');
  await mkdir(ws);
  await mkdir(home);
  roots = skillRoots(ws, home);
});

const skillMd = (name: string, description: string, body = 'Do the thing.') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

/** Writes `<skills folder>/<folder>/SKILL.md` and returns the skill folder. */
async function putSkill(skillsDir: string, folder: string, text: string): Promise<string> {
  const dir = path.join(skillsDir, folder);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'SKILL.md'), text);
  return dir;
}

const projectSkills = () => path.join(ws, '.gatehouse', 'skills');
const claudeSkills = () => path.join(ws, '.claude', 'skills');
const personalSkills = () => path.join(home, '.gatehouse', 'skills');

describe('findSkills', () => {
  it('finds skills in all three roots with their name, description, folder and file', async () => {
    const a = await putSkill(projectSkills(), 'a', skillMd('alpha', 'first'));
    const b = await putSkill(claudeSkills(), 'b', skillMd('beta', 'second'));
    const c = await putSkill(personalSkills(), 'c', skillMd('gamma', 'third'));
    expect(await findSkills(roots)).toEqual({
      skills: [
        { name: 'alpha', description: 'first', dir: a, file: path.join(a, 'SKILL.md') },
        { name: 'beta', description: 'second', dir: b, file: path.join(b, 'SKILL.md') },
        { name: 'gamma', description: 'third', dir: c, file: path.join(c, 'SKILL.md') },
      ],
      problems: [],
    });
  });

  it("lets the workspace's .gatehouse skill win over .claude's, and .claude's over the personal one", async () => {
    await putSkill(personalSkills(), 'x', skillMd('review', 'personal'));
    await putSkill(claudeSkills(), 'x', skillMd('review', 'claude'));
    await putSkill(projectSkills(), 'x', skillMd('review', 'project'));
    await putSkill(personalSkills(), 'y', skillMd('deploy', 'personal'));
    await putSkill(claudeSkills(), 'y', skillMd('deploy', 'claude'));
    const { skills } = await findSkills(roots);
    expect(skills.map((s) => `${s.name}:${s.description}`)).toEqual(['review:project', 'deploy:claude']);
  });

  it('returns nothing, and no problem, when no root exists', async () => {
    expect(await findSkills(roots)).toEqual({ skills: [], problems: [] });
  });

  it('skips a skill whose SKILL.md links out of its root, saying so', async () => {
    const outside = path.join(tmp.path, 'elsewhere.md');
    await writeFile(outside, skillMd('sneaky', 'reads outside'));
    const dir = path.join(projectSkills(), 'sneaky');
    await mkdir(dir, { recursive: true });
    await symlink(outside, path.join(dir, 'SKILL.md'));
    expect(await findSkills(roots)).toEqual({
      skills: [],
      problems: [{ dir, problem: `SKILL.md links out of ${ws}; skipped` }],
    });
  });

  it('skips a SKILL.md that is a FIFO at once, saying it is not a regular file', async () => {
    const dir = path.join(projectSkills(), 'pipe');
    await mkdir(dir, { recursive: true });
    execFileSync('mkfifo', [path.join(dir, 'SKILL.md')]);
    await putSkill(projectSkills(), 'ok', skillMd('ok', 'fine'));
    const catalog = await findSkills(roots);
    expect(catalog.skills.map((s) => s.name)).toEqual(['ok']);
    expect(catalog.problems).toEqual([
      { dir, problem: `${path.join(dir, 'SKILL.md')} is not a regular file; skipped` },
    ]);
  });

  it('skips a SKILL.md over 256 KiB, saying so', async () => {
    const dir = await putSkill(projectSkills(), 'huge', skillMd('huge', 'too big'));
    await truncate(path.join(dir, 'SKILL.md'), SKILL_MAX_BYTES + 1);
    expect((await findSkills(roots)).problems).toEqual([
      {
        dir,
        problem: `SKILL.md is ${SKILL_MAX_BYTES + 1} bytes; skills are read only up to ${SKILL_MAX_BYTES} bytes (256 KiB); skipped`,
      },
    ]);
  });

  it('reports a folder without SKILL.md', async () => {
    const dir = path.join(projectSkills(), 'empty');
    await mkdir(dir, { recursive: true });
    expect((await findSkills(roots)).problems).toEqual([{ dir, problem: 'no readable SKILL.md' }]);
  });

  it('reports missing front matter, a missing name and a missing description', async () => {
    const none = await putSkill(projectSkills(), 'a-none', 'Just text, no front matter.\n');
    const noName = await putSkill(projectSkills(), 'b-noname', '---\ndescription: d\n---\nbody\n');
    const noDescription = await putSkill(projectSkills(), 'c-nodesc', '---\nname: n\n---\nbody\n');
    const blankName = await putSkill(projectSkills(), 'd-blank', '---\nname: "  "\ndescription: d\n---\n');
    expect(await findSkills(roots)).toEqual({
      skills: [],
      problems: [
        { dir: none, problem: 'SKILL.md has no YAML front matter' },
        { dir: noName, problem: 'front matter has no `name`' },
        { dir: noDescription, problem: 'front matter has no `description`' },
        { dir: blankName, problem: 'front matter has no `name`' },
      ],
    });
  });

  it('reports front matter that is not valid YAML', async () => {
    const dir = await putSkill(projectSkills(), 'bad', '---\nname: [unclosed\n---\n');
    const [problem] = (await findSkills(roots)).problems;
    expect(problem?.dir).toBe(dir);
    expect(problem?.problem).toMatch(/^front matter is not valid YAML: /);
  });

  it('accepts a name and description at their length limits', async () => {
    const name = 'n'.repeat(SKILL_NAME_MAX_CHARS);
    const description = 'd'.repeat(SKILL_DESCRIPTION_MAX_CHARS);
    await putSkill(projectSkills(), 'max', skillMd(name, description));
    expect((await findSkills(roots)).skills).toMatchObject([{ name, description }]);
  });

  it('reports a name or description over its length limit', async () => {
    const longName = await putSkill(
      projectSkills(),
      'a-long-name',
      skillMd('n'.repeat(SKILL_NAME_MAX_CHARS + 1), 'fine'),
    );
    const longDescription = await putSkill(
      projectSkills(),
      'b-long-description',
      skillMd('fine', 'd'.repeat(SKILL_DESCRIPTION_MAX_CHARS + 1)),
    );
    expect(await findSkills(roots)).toEqual({
      skills: [],
      problems: [
        { dir: longName, problem: `front matter \`name\` is 201 characters; at most 200 are allowed` },
        { dir: longDescription, problem: `front matter \`description\` is 1025 characters; at most 1024 are allowed` },
      ],
    });
  });
});

describe('loadSkill', () => {
  it('returns the body without front matter and the other files in the folder', async () => {
    const dir = await putSkill(projectSkills(), 'a', skillMd('alpha', 'first', '# Steps\n1. Do it.'));
    await mkdir(path.join(dir, 'scripts'));
    await writeFile(path.join(dir, 'scripts', 'run.sh'), '#!/bin/sh\n');
    await writeFile(path.join(dir, 'notes.md'), 'n');
    const [skill] = (await findSkills(roots)).skills;
    expect(await loadSkill(skill!)).toEqual({ body: '# Steps\n1. Do it.', files: ['notes.md', 'scripts/run.sh'] });
  });

  it('cuts a SKILL.md that grew past 256 KiB since it was listed, and says so', async () => {
    const dir = await putSkill(projectSkills(), 'a', skillMd('alpha', 'first', 'start'));
    const [skill] = (await findSkills(roots)).skills;
    await writeFile(path.join(dir, 'SKILL.md'), skillMd('alpha', 'first', 'x'.repeat(SKILL_MAX_BYTES)));
    const { body } = await loadSkill(skill!);
    expect(body.endsWith(`x\n[... SKILL.md cut at ${SKILL_MAX_BYTES} bytes]`)).toBe(true);
    expect(Buffer.byteLength(body)).toBeLessThan(SKILL_MAX_BYTES + 100);
  });

  it('refuses, saying why, a SKILL.md replaced by a FIFO since it was listed', async () => {
    const dir = await putSkill(projectSkills(), 'a', skillMd('alpha', 'first'));
    const [skill] = (await findSkills(roots)).skills;
    await rm(path.join(dir, 'SKILL.md'));
    execFileSync('mkfifo', [path.join(dir, 'SKILL.md')]);
    await expect(loadSkill(skill!)).rejects.toThrow(`${path.join(dir, 'SKILL.md')} is not a regular file`);
  });
});
