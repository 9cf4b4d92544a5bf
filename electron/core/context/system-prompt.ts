/**
 * The system prompt of a turn: who the agent is and how the gate works, the project's
 * instructions (AGENTS.md, else CLAUDE.md) and the list of skills.
 */
import type { SandboxAvailability } from '../sandbox/sandbox.js';
import type { Skill } from '../skills/skills.js';

export interface SystemPromptInput {
  workspaceRoot: string;
  /** Whether allowed commands run in the sandbox here, or why not (SPEC §9); confined when absent. */
  commands?: SandboxAvailability;
  instructions: { file: string; text: string } | null;
  skills: Skill[];
  /** What the model is told of the MCP servers, or null when there are none. */
  mcp?: string | null;
}

export function systemPrompt({ workspaceRoot, instructions, skills, commands, mcp = null }: SystemPromptInput): string {
  const parts = [
    `You are a coding agent working in the folder ${workspaceRoot} (the workspace), through Gatehouse.`,
    [
      'How your tools are gated:',
      '- read_file, grep and list_dir inside the workspace run at once. Use relative paths for the workspace.',
      '- write_file, search_replace and run (and any read outside the workspace) wait for the user to allow them. The user sees the exact diff or argv.',
      '- A call the user denies returns "denied by the user": do not repeat it; adapt, or ask with the ask tool.',
      '- The user may edit your proposed write before allowing it. The result then says so and gives their changes as a diff from your proposal: build on the file as written, and do not undo their changes.',
      '- run takes an argv and uses no shell. Use ["sh", "-c", "..."] only when you need pipes or redirects.',
      commandsLine(commands),
      ...(mcp ? [mcp] : []),
      '- When the task is done, call finish with a short summary. The project may run Stop hooks (tests) before the turn ends.',
    ].join('\n'),
  ];
  if (instructions) {
    parts.push(
      `Project instructions from ${instructions.file}:\n<project-instructions>\n${instructions.text}\n</project-instructions>`,
    );
  }
  if (skills.length > 0) {
    const list = skills.map((s) => `- ${s.name}: ${s.description}`).join('\n');
    parts.push(`Skills you can load with use_skill when one fits the task:\n${list}`);
  }
  return parts.join('\n\n');
}

function commandsLine(commands: SandboxAvailability | undefined): string {
  if (commands?.available === false) {
    return `- Commands cannot be confined on this machine (${commands.reason}): an allowed command runs with the user's own access, and its card tells the user so. Prefer commands that only touch the workspace.`;
  }
  return '- An allowed command runs in a sandbox: it sees the workspace, the system and the user\'s toolchains, not the rest of the home folder ($HOME is private and empty); it writes only in the workspace, its own /tmp and that home; .git is read-only; it sees no secrets, no Unix sockets, and has no network. Ask for git: true only for a command that must write git state (commit, checkout, switch, merge, rebase, stash, fetch, pull); git status, diff and log need nothing. Ask for network: true only when the command needs the network (installing or fetching packages), and for unconfined: true only after a confined run was "blocked by the sandbox" and the task cannot be done inside it. The user sees each flag as a warning.';
}
