/**
 * Agent Skills (a folder holding SKILL.md with YAML front matter `name` and
 * `description`). Found in the workspace's `.gatehouse/skills/` and `.claude/skills/`,
 * then the user's `~/.gatehouse/skills/`; the first folder to define a name wins, so a
 * project can override a personal skill.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

export interface Skill {
  name: string;
  description: string;
  /** The skill's folder. */
  dir: string;
  /** The real path of its SKILL.md, checked to stay inside its root when found. */
  file: string;
}

export interface SkillProblem {
  dir: string;
  problem: string;
}

export interface SkillCatalog {
  skills: Skill[];
  /** Skill folders that could not be read, with why, so the UI can say so. */
  problems: SkillProblem[];
}

const SKILL_FILE = 'SKILL.md';
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/** A folder of skills, and the real folder its skills must stay inside (links out are skipped). */
export interface SkillRoot {
  dir: string;
  confine: string;
}

export function skillRoots(workspaceRoot: string, home: string): SkillRoot[] {
  const personal = path.join(home, '.gatehouse', 'skills');
  return [
    { dir: path.join(workspaceRoot, '.gatehouse', 'skills'), confine: workspaceRoot },
    { dir: path.join(workspaceRoot, '.claude', 'skills'), confine: workspaceRoot },
    { dir: personal, confine: personal },
  ];
}

export async function findSkills(roots: SkillRoot[]): Promise<SkillCatalog> {
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    const confine = await fs.realpath(root.confine).catch(() => null);
    if (!confine) continue;
    for (const dir of await childFolders(root.dir)) {
      const read = await readSkill(dir, confine);
      if ('problem' in read) problems.push(read);
      else if (!seen.has(read.name)) {
        seen.add(read.name);
        skills.push(read);
      }
    }
  }
  return { skills, problems };
}

/** The skill's instructions (SKILL.md without its front matter) and the other files in its folder. */
export async function loadSkill(skill: Skill): Promise<{ body: string; files: string[] }> {
  const text = await fs.readFile(skill.file, 'utf8');
  const files = (await listFiles(skill.dir)).filter((f) => f !== SKILL_FILE);
  return { body: text.replace(FRONT_MATTER, '').trim(), files };
}

async function readSkill(dir: string, confine: string): Promise<Skill | SkillProblem> {
  let text: string;
  let real: string;
  try {
    real = await fs.realpath(path.join(dir, SKILL_FILE));
    if (!real.startsWith(confine + path.sep)) return { dir, problem: `${SKILL_FILE} links out of ${confine}; skipped` };
    text = await fs.readFile(real, 'utf8');
  } catch {
    return { dir, problem: `no readable ${SKILL_FILE}` };
  }
  const match = FRONT_MATTER.exec(text);
  if (!match) return { dir, problem: `${SKILL_FILE} has no YAML front matter` };
  let meta: unknown;
  try {
    meta = parseYaml(match[1] ?? '');
  } catch (err) {
    return { dir, problem: `front matter is not valid YAML: ${(err as Error).message}` };
  }
  const { name, description } = (meta ?? {}) as Record<string, unknown>;
  if (typeof name !== 'string' || !name.trim()) return { dir, problem: 'front matter has no `name`' };
  if (typeof description !== 'string' || !description.trim())
    return { dir, problem: 'front matter has no `description`' };
  return { name: name.trim(), description: description.trim(), dir, file: real };
}

async function childFolders(root: string): Promise<string[]> {
  try {
    const entries = await fs.readdir(root, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => path.join(root, e.name))
      .sort();
  } catch {
    return [];
  }
}

/** Files under a skill folder, relative, sorted; bounded so a huge folder cannot flood the model. */
async function listFiles(dir: string, limit = 200): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= limit) return;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(child);
      else out.push(child);
    }
  };
  await walk('');
  return out;
}
