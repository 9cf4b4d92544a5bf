/**
 * The real sandbox, with more writable places: the markers folder, where the suite's
 * marker commands prove that they started and in which folder, and the folder where the
 * test MCP server logs every call it receives. They are the suite's own evidence, outside
 * the workspace and the watched tree; everything else about the profile (no other write
 * outside, hidden secrets, no network) is the app's.
 */
import type { Sandbox } from '../../electron/core/sandbox/sandbox.js';

export function markersWritable(inner: Sandbox, ...evidence: string[]): Sandbox {
  return {
    availability: () => inner.availability(),
    profile: async (root, options) => {
      const profile = await inner.profile(root, options);
      return { ...profile, writable: [...profile.writable, ...evidence] };
    },
    confine: (spec, profile) => inner.confine(spec, profile),
    dispose: () => inner.dispose(),
  };
}
