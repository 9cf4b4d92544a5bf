/**
 * The places room's one door (SPEC §15): a session's place of its own made (a git worktree
 * on a branch of its own, or a copy of a folder that is not a repository), its whole change
 * reviewed against the person's folder, applied back as files or as one commit, discarded,
 * and every place in the data folder listed (orphans removable). It logs nothing itself:
 * the session's calls (session-place.ts) log each step around these.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs, realpathSync } from 'node:fs';
import path from 'node:path';
import type {
  PlaceApplyFile,
  PlaceApplyOutcome,
  PlaceListing,
  PlaceReview,
  SessionPlace,
} from '../../../shared/places.js';
import type { CheckpointStore, GitAvailability } from '../checkpoints/checkpoint-store.js';
import { commitArgv, commitFiles, currentBranch } from './apply-commit.js';
import { applyFiles, settleInterrupted } from './apply-files.js';
import { copyFolder } from './make-copy.js';
import { addWorktree, discardArgs, freeBranch, isRepositoryRoot, resolveBase, slugOf } from './make-worktree.js';
import { ABSENT } from './origin-files.js';
import { SerialQueue } from '../files/serial-queue.js';
import { PersonGit } from './person-git.js';
import { PlaceError } from './place-error.js';
import { placeDirFor, placeOfRecord, placesRoot, readPlaceRecord, writePlaceRecord } from './place-layout.js';
import { reviewFiles, type ReviewedFile } from './place-review.js';
import { diskBytes } from './place-size.js';

export interface PlacesDeps {
  dataDir: string;
  /** Where git is (the checkpoints' finder): a worktree, a review's merge and a commit need it. */
  git: () => Promise<GitAvailability>;
  /** The place's checkpoint store (the session's own, on the place folder). */
  store: (sessionId: string, placeDir: string) => Promise<CheckpointStore>;
  /** The person's home, for their `user.name` in ~/.gitconfig (read, never run). */
  home?: string;
  /** Told after each file an apply writes (a test stops the process there). */
  onApplyFile?: (path: string) => void;
}

/** A session's place with the snapshot its review starts from. */
export type MadePlace = SessionPlace & { baseSnapshot: string };

/** A review as Apply checks it again. */
interface KeptReview {
  sessionId: string;
  files: Map<string, ReviewedFile>;
  branch: string | null;
}

/** What an apply writes (logged first), and the files it leaves because the review found them in conflict. */
export interface ApplyPlan {
  files: PlaceApplyFile[];
  conflicts: string[];
}

/** Reviews kept per session: Apply names one of the latest. */
const REVIEWS_KEPT = 8;

export class Places {
  private readonly reviews = new Map<string, KeptReview>();
  /**
   * One worktree change at a time per repository: two `git worktree add` at once on one
   * repository race over `.git/worktrees/` (one reads the other's half-made admin folder).
   */
  private readonly repoQueues = new Map<string, SerialQueue>();
  private readonly order: string[] = [];

  constructor(private readonly deps: PlacesDeps) {}

  /** The real data folder's places root (the data-folder refusal compares real paths). */
  realRoot(): string {
    return placesRoot(realLocation(this.deps.dataDir));
  }

  /**
   * Makes session `sessionId`'s place from `origin` (a real folder path): a worktree when
   * it is a repository's root with a commit, else a copy. Nothing is left behind when any
   * step fails. Its base snapshot is taken next (`snapshotBase`), before its first turn.
   */
  make(sessionId: string, origin: string, options: { base?: string; title: string }): Promise<SessionPlace> {
    return this.inTurn(origin, () => this.makeNow(sessionId, origin, options));
  }

  private async makeNow(
    sessionId: string,
    origin: string,
    options: { base?: string; title: string },
  ): Promise<SessionPlace> {
    const dir = placeDirFor(realLocation(this.deps.dataDir), sessionId, origin);
    const holder = path.dirname(dir);
    const git = await this.gitOrNull();
    const person = git ? new PersonGit(git, origin) : null;
    const repo = person !== null && (await isRepositoryRoot(person, origin));
    if (options.base !== undefined && !repo)
      throw new PlaceError(`${origin} is not a git repository, so it has no base ${JSON.stringify(options.base)}`);
    if (!git) throw new PlaceError('a place of its own needs git, which is not installed here');
    await fs.mkdir(holder, { recursive: true, mode: 0o700 });
    let place: SessionPlace | null = null;
    try {
      if (repo) {
        const base = await resolveBase(person, options.base);
        const branch = await freeBranch(person, slugOf(options.title));
        place = { kind: 'worktree', origin, path: dir, branch, baseCommit: base, state: 'active' };
        await addWorktree(person, dir, branch, base);
      } else {
        place = { kind: 'copy', origin, path: dir, state: 'active' };
        await fs.mkdir(dir, { mode: 0o700 });
        await copyFolder(origin, dir);
      }
      await writePlaceRecord({ sessionId, title: options.title, place });
      return place;
    } catch (err) {
      if (place) await this.removeQuietly(place, false);
      await fs.rm(holder, { recursive: true, force: true });
      throw err;
    }
  }

  /**
   * The place as it is now, snapshotted in the session's checkpoint store: the base every
   * review compares against. Taken once, after the place is made and before anything runs
   * in it (the first turn waits for it): on a large repository it hashes every file, which
   * opening the session need not wait for.
   */
  async snapshotBase(sessionId: string, place: SessionPlace): Promise<MadePlace> {
    const store = await this.deps.store(sessionId, place.path);
    return { ...place, baseSnapshot: (await store.snapshot()).id };
  }

  /** A made place taken back (its session could not be made after it). */
  async unmake(place: SessionPlace): Promise<void> {
    await this.removeQuietly(place, false);
    await fs.rm(path.dirname(place.path), { recursive: true, force: true });
  }

  async review(sessionId: string, place: SessionPlace, baseSnapshot: string): Promise<PlaceReview> {
    requireActive(place);
    const git = await this.requireGit();
    const store = await this.deps.store(sessionId, place.path);
    const { files, kept, more } = await reviewFiles({
      store,
      git,
      baseSnapshot,
      origin: place.origin,
      placeDir: place.path,
    });
    const person = place.kind === 'worktree' ? new PersonGit(git, place.origin) : null;
    const branch = person ? await currentBranch(person).catch(() => null) : null;
    const reviewId = randomUUID();
    this.keep(reviewId, { sessionId, files: new Map(kept.map((f) => [f.path, f])), branch });
    return {
      place,
      reviewId,
      reviewedAt: new Date().toISOString(),
      files,
      more,
      commit: await this.commitOffer(place, person, branch),
      discard: {
        removes: [place.path, ...(place.branch ? [`the branch ${place.branch}`] : [])],
        argv: place.kind === 'worktree' ? discardArgs(place.path, place.branch!, false).map((a) => ['git', ...a]) : [],
      },
      bytes: await diskBytes(place.path),
    };
  }

  /**
   * What an apply will do, checked before anything is logged or written: the review must be
   * this session's, every path one it reviewed, and a commit possible when one is asked for.
   */
  planApply(
    sessionId: string,
    place: SessionPlace,
    request: { reviewId: string; as: 'files' | 'commit'; paths?: readonly string[] },
  ): ApplyPlan {
    requireActive(place);
    const review = this.reviews.get(request.reviewId);
    if (!review || review.sessionId !== sessionId) {
      throw new PlaceError(`no review ${JSON.stringify(request.reviewId)} of this session: review the place again`);
    }
    const paths = request.paths ?? [...review.files.keys()];
    const unknown = paths.filter((p) => !review.files.has(p));
    if (unknown.length > 0) {
      throw new PlaceError(
        `not in the review: ${unknown
          .slice(0, 5)
          .map((p) => JSON.stringify(p))
          .join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}`,
      );
    }
    if (new Set(paths).size !== paths.length) throw new PlaceError('a path is named twice');
    if (request.as === 'commit' && (place.kind !== 'worktree' || review.branch === null)) {
      throw new PlaceError(
        place.kind === 'worktree'
          ? 'your folder is not on a branch, so no commit can be made'
          : 'your folder is not a git repository, so no commit can be made',
      );
    }
    // A file the review found in conflict is never written, whatever it reads by the time of the apply.
    const chosen = paths.map((p) => review.files.get(p)!);
    return {
      files: chosen
        .filter((f) => f.status !== 'conflict')
        .map((f) => ({ path: f.path, change: f.change, from: f.from, to: f.to })),
      conflicts: chosen.filter((f) => f.status === 'conflict').map((f) => f.path),
    };
  }

  /** Writes the planned files (logged already by the caller), then the commit when asked. */
  async apply(
    sessionId: string,
    place: SessionPlace,
    request: { reviewId: string; as: 'files' | 'commit'; message?: string },
    plan: ApplyPlan,
  ): Promise<PlaceApplyOutcome> {
    const { files } = plan;
    const review = this.reviews.get(request.reviewId)!;
    const modes = new Map([...review.files.values()].map((f) => [f.path, f.mode]));
    const written = await applyFiles(
      {
        origin: place.origin,
        placeDir: place.path,
        modes,
        ...(this.deps.onApplyFile ? { onFile: this.deps.onApplyFile } : {}),
      },
      files,
    );
    const outcome = { ...written, conflicts: [...plan.conflicts, ...written.conflicts] };
    if (request.as !== 'commit' || outcome.applied.length === 0) return outcome;
    try {
      const git = await this.requireGit();
      const person = new PersonGit(git, place.origin);
      const applied = new Set(outcome.applied);
      const commit = await commitFiles(
        person,
        {
          branch: review.branch!,
          message: request.message?.trim() || `Apply the session's changes (${outcome.applied.length} files)`,
          scratchDir: path.dirname(place.path),
          author: await this.author(person),
        },
        files
          .filter((f) => applied.has(f.path))
          .map((f) => ({
            path: f.path,
            source: f.to === ABSENT ? null : path.join(place.path, f.path),
            executable: ((modes.get(f.path) ?? 0) & 0o111) !== 0,
          })),
      );
      return { ...outcome, commit };
    } catch (err) {
      return {
        ...outcome,
        failed: [...outcome.failed, { path: '.', reason: `no commit was made: ${(err as Error).message}` }],
      };
    }
  }

  settleInterrupted(place: SessionPlace, files: readonly PlaceApplyFile[]): Promise<PlaceApplyOutcome> {
    return settleInterrupted(place.origin, files);
  }

  /** Removes the place (a worktree through git, and its branch unless kept); the state it leaves. */
  async discard(place: SessionPlace, keepBranch: boolean): Promise<SessionPlace> {
    requireActive(place);
    await this.inTurn(place.origin, () => this.removePlace(place, keepBranch));
    await fs.rm(path.dirname(place.path), { recursive: true, force: true });
    return discarded(place);
  }

  /**
   * Finishes a discard the process stopped in: whatever of it is left is removed (git
   * removes a worktree whose folder is gone, and a branch already deleted is no failure).
   */
  async finishDiscard(place: SessionPlace, keepBranch: boolean): Promise<SessionPlace> {
    await this.inTurn(place.origin, () => this.removeQuietly(place, keepBranch));
    await fs.rm(path.dirname(place.path), { recursive: true, force: true });
    return discarded(place);
  }

  /**
   * The place made for session `sessionId`, as `place.json` records it, or null. A stop
   * between making the session and logging its place leaves only this to say it has one.
   */
  async madeFor(sessionId: string): Promise<SessionPlace | null> {
    let holder: string;
    try {
      holder = path.dirname(placeDirFor(this.deps.dataDir, sessionId, 'x'));
    } catch {
      return null;
    }
    const record = await readPlaceRecord(holder);
    return record?.sessionId === sessionId ? placeOfRecord(record) : null;
  }

  /** Every place in the data folder; `live` names the sessions there are (with their titles). */
  async list(live: ReadonlyMap<string, string>): Promise<PlaceListing[]> {
    const root = placesRoot(this.deps.dataDir);
    const ids = await fs.readdir(root).catch(() => [] as string[]);
    const found: PlaceListing[] = [];
    for (const id of ids.sort()) {
      const record = await readPlaceRecord(path.join(root, id));
      if (!record || record.sessionId !== id) continue;
      const place = placeOfRecord(record);
      const title = live.get(id);
      found.push({
        path: place.path,
        kind: place.kind,
        origin: place.origin,
        ...(place.branch ? { branch: place.branch } : {}),
        bytes: await diskBytes(path.join(root, id)),
        sessionId: title === undefined ? null : id,
        ...(title !== undefined ? { title } : record.title ? { title: record.title } : {}),
      });
    }
    return found;
  }

  /** Removes an orphan place: `placePath` must be exactly one the listing names with no session. */
  async remove(placePath: string, live: ReadonlyMap<string, string>): Promise<void> {
    const orphan = (await this.list(live)).find((p) => p.path === placePath);
    if (!orphan) throw new PlaceError(`${placePath} is not a place in the data folder`);
    if (orphan.sessionId !== null)
      throw new PlaceError(`${placePath} is the place of a session: discard it from the session`);
    const record = await readPlaceRecord(path.dirname(placePath));
    if (record) await this.inTurn(record.place.origin, () => this.removeQuietly(placeOfRecord(record), false));
    await fs.rm(path.dirname(placePath), { recursive: true, force: true });
  }

  private async commitOffer(
    place: SessionPlace,
    person: PersonGit | null,
    branch: string | null,
  ): Promise<PlaceReview['commit']> {
    if (place.kind !== 'worktree' || !person) return { why: 'your folder is not a git repository' };
    if (branch === null) return { why: 'your folder is on a detached HEAD, not a branch' };
    const argv = await Promise.all(commitArgv(branch).map((a) => person.shown(a)));
    return { branch, argv };
  }

  /** The person's name and email from the repository's config or ~/.gitconfig (read only), or Gatehouse's. */
  private async author(person: PersonGit): Promise<{ name: string; email: string }> {
    const read = async (key: string) => {
      const local = await person.text({ what: `read ${key}`, args: ['config', '--get', key] }).catch(() => '');
      if (local || !this.deps.home) return local;
      const file = path.join(this.deps.home, '.gitconfig');
      return person.text({ what: `read ${key}`, args: ['config', '--file', file, '--get', key] }).catch(() => '');
    };
    const [name, email] = await Promise.all([read('user.name'), read('user.email')]);
    return { name: name || 'Gatehouse', email: email || 'gatehouse@localhost' };
  }

  private async removePlace(place: SessionPlace, keepBranch: boolean): Promise<void> {
    if (place.kind === 'copy') return;
    const git = await this.requireGit();
    const person = new PersonGit(git, place.origin);
    for (const args of discardArgs(place.path, place.branch!, keepBranch)) {
      await person.run({
        what: args[0] === 'worktree' ? 'remove the worktree' : 'delete the branch',
        args,
        okCodes: args[0] === 'branch' ? [1] : [],
      });
    }
  }

  private async removeQuietly(place: SessionPlace, keepBranch: boolean): Promise<void> {
    await this.removePlace(place, keepBranch).catch(() => undefined);
  }

  private async gitOrNull(): Promise<string | null> {
    const found = await this.deps.git();
    return found.ok ? found.git : null;
  }

  private async requireGit(): Promise<string> {
    const found = await this.deps.git();
    if (!found.ok) throw new PlaceError(`git is needed for a place: ${found.reason}`);
    return found.git;
  }

  private inTurn<T>(origin: string, work: () => Promise<T>): Promise<T> {
    let queue = this.repoQueues.get(origin);
    if (!queue) this.repoQueues.set(origin, (queue = new SerialQueue()));
    return queue.run(work);
  }

  private keep(id: string, review: KeptReview): void {
    this.reviews.set(id, review);
    this.order.push(id);
    const ofSession = this.order.filter((r) => this.reviews.get(r)?.sessionId === review.sessionId);
    for (const old of ofSession.slice(0, -REVIEWS_KEPT)) {
      this.reviews.delete(old);
      this.order.splice(this.order.indexOf(old), 1);
    }
  }
}

/** The place as it reads once removed: nothing of the removal under way is kept. */
function discarded(place: SessionPlace): SessionPlace {
  const { discarding: _, ...rest } = place;
  return { ...rest, state: 'discarded' };
}

function requireActive(place: SessionPlace): void {
  if (place.state !== 'active') throw new PlaceError("this session's place was discarded");
}

/** The real path of a folder, or of where it would be (the data folder may not exist yet). */
function realLocation(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
}
