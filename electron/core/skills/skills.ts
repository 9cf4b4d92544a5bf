/**
 * Agent Skills (a folder holding SKILL.md with YAML front matter `name` and
 * `description`). Found in the workspace's `.gatehouse/skills/` and `.claude/skills/`,
 * then the user's `~/.gatehouse/skills/`; the first folder to define a name wins, so a
 * project can override a personal skill.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { SKILL_MAX_BYTES, SKILL_NAME_MAX_CHARS, SKILL_DESCRIPTION_MAX_CHARS } from '../../../shared/limits.js';
import { NotAFileError, readRegularFile } from '../paths/regular-file.js';
import { wholeCharLength } from '../text/utf8-boundary.js';

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

/**
 * The skill's instructions (SKILL.md without its front matter) and the other files in its
 * folder. Throws, saying why, when SKILL.md is gone or is no longer a regular file.
 */
export async function loadSkill(skill: Skill): Promise<{ body: string; files: string[] }> {
  // skill.file is a real path, so the reader's refusal of a link catches one swapped in since.
  const read = await readRegularFile(skill.file, SKILL_MAX_BYTES);
  if (read === null) throw new Error(`skill "${skill.name}": ${skill.file} is gone`);
  // It grew past the limit since it was listed: cut, as project instructions are.
  const text = read.bytes.subarray(0, read.cut ? wholeCharLength(read.bytes) : undefined).toString('utf8');
  const body = text.replace(FRONT_MATTER, '').trim();
  const files = (await listFiles(skill.dir)).filter((f) => f !== SKILL_FILE);
  return { body: read.cut ? `${body}\n[... ${SKILL_FILE} cut at ${SKILL_MAX_BYTES} bytes]` : body, files };
}

async function readSkill(dir: string, confine: string): Promise<Skill | SkillProblem> {
  const file = await readSkillFile(dir, confine);
  if ('problem' in file) return file;
  const match = FRONT_MATTER.exec(file.text);
  if (!match) return { dir, problem: `${SKILL_FILE} has no YAML front matter` };
  let meta: unknown;
  try {
    meta = parseYaml(match[1] ?? '');
  } catch (err) {
    return { dir, problem: `front matter is not valid YAML: ${(err as Error).message}` };
  }
  const fields = (meta ?? {}) as Record<string, unknown>;
  const name = textField(fields, 'name', SKILL_NAME_MAX_CHARS);
  if ('problem' in name) return { dir, problem: name.problem };
  const description = textField(fields, 'description', SKILL_DESCRIPTION_MAX_CHARS);
  if ('problem' in description) return { dir, problem: description.problem };
  return { name: name.value, description: description.value, dir, file: file.real };
}

/** SKILL.md's real path and text, when it stays inside `confine`, is a regular file and is not too big. */
async function readSkillFile(dir: string, confine: string): Promise<{ real: string; text: string } | SkillProblem> {
  try {
    const real = await fs.realpath(path.join(dir, SKILL_FILE));
    if (!real.startsWith(confine + path.sep)) return { dir, problem: `${SKILL_FILE} links out of ${confine}; skipped` };
    // Through the no-hang reader: a FIFO here must not stall every system prompt.
    const read = await readRegularFile(real, SKILL_MAX_BYTES);
    if (read === null) return { dir, problem: `no readable ${SKILL_FILE}` };
    if (read.cut) {
      return {
        dir,
        problem: `${SKILL_FILE} is ${read.size} bytes; skills are read only up to ${SKILL_MAX_BYTES} bytes (256 KiB); skipped`,
      };
    }
    return { real, text: read.bytes.toString('utf8') };
  } catch (err) {
    if (err instanceof NotAFileError) return { dir, problem: `${err.message}; skipped` };
    return { dir, problem: `no readable ${SKILL_FILE}` };
  }
}

/** A front-matter field as trimmed text, or why it is unusable: missing, empty, not text, or too long. */
function textField(
  fields: Record<string, unknown>,
  field: string,
  maxChars: number,
): { value: string } | { problem: string } {
  const raw = fields[field];
  if (typeof raw !== 'string' || !raw.trim()) return { problem: `front matter has no \`${field}\`` };
  const value = raw.trim();
  if (value.length > maxChars) {
    return { problem: `front matter \`${field}\` is ${value.length} characters; at most ${maxChars} are allowed` };
  }
  return { value };
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
