/**
 * One vocabulary for lifetimes, VS Code's (`base/common/lifecycle.ts`): whatever holds
 * something that must be let go (processes, open files, sockets, a worker) is a
 * `Disposable`, and its owner lets go of it with `dispose()`. A `DisposableStore` holds
 * the parts of a whole and disposes them in reverse order of adding, so a part goes
 * before what it was built on (sessions before the store their logs are in).
 */

export interface Disposable {
  dispose(): void | Promise<void>;
}

export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposing: Promise<void> | null = null;

  /** Adds a part; one added after the store was disposed is disposed at once. */
  add<T extends Disposable>(item: T): T {
    if (this.disposing) void Promise.resolve(item.dispose()).catch(() => {});
    else this.items.push(item);
    return item;
  }

  /**
   * Disposes every part once, the last added first, each after the one before has
   * finished. One that fails does not keep the rest from going; the first failure is
   * thrown once all have been tried.
   */
  dispose(): Promise<void> {
    this.disposing ??= this.disposeAll();
    return this.disposing;
  }

  private async disposeAll(): Promise<void> {
    let first: unknown = null;
    for (const item of this.items.splice(0).reverse()) {
      try {
        await item.dispose();
      } catch (err) {
        first ??= err;
      }
    }
    if (first !== null) throw first;
  }
}
