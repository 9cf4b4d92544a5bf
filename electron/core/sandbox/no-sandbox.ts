/**
 * The sandbox where none can run (DESIGN: one required door): it says why and what a
 * person can do, and confines nothing. Every command then plans unconfined with that
 * reason on its card, or is refused when Settings says so. Tests of the tools alone use
 * it too, so no code path has to ask whether a sandbox was set up.
 */
import type { Sandbox, SandboxAvailability, SandboxProfile, ConfinedSpec } from './sandbox.js';

export class NoSandbox implements Sandbox {
  constructor(
    private readonly reason: string,
    private readonly fix = '',
  ) {}

  async availability(): Promise<SandboxAvailability> {
    return { available: false, reason: this.reason, fix: this.fix };
  }

  profile(): Promise<SandboxProfile> {
    return Promise.reject(new Error(`commands cannot be confined here: ${this.reason}`));
  }

  confine(): Promise<ConfinedSpec> {
    return Promise.reject(new Error(`commands cannot be confined here: ${this.reason}`));
  }

  async dispose(): Promise<void> {}
}
