/**
 * Every limit in SPEC.md, stated once. Tools, the gate and the runner import these;
 * tests check each one at, just under and just over its edge.
 */

/** read_file returns at most this many bytes in one call (SPEC §2). */
export const READ_MAX_BYTES = 32 * 1024;

/** A file with a NUL byte in its first this-many bytes is treated as binary and refused. */
export const BINARY_SNIFF_BYTES = 8 * 1024;

/** grep returns at most this many matches; the rest are counted, not returned. */
export const GREP_MAX_MATCHES = 200;

/** grep cuts each matching line to this many characters so one minified line cannot flood the model. */
export const GREP_LINE_MAX_CHARS = 500;

/** list_dir returns at most this many names; the rest are counted. */
export const LIST_MAX_NAMES = 500;

/** write_file and search_replace refuse a resulting file larger than this. */
export const WRITE_MAX_BYTES = 256 * 1024;

/** run's timeout when the call gives none. */
export const RUN_DEFAULT_TIMEOUT_S = 120;

/** run refuses a timeout above this (it is an error, not a silent clamp). */
export const RUN_MAX_TIMEOUT_S = 600;

/** run returns at most this many bytes of each stream (stdout, stderr), as head plus tail. */
export const RUN_STREAM_MAX_BYTES = 64 * 1024;

/** After SIGTERM on timeout or cancel, the process group gets SIGKILL this much later. */
export const KILL_GRACE_MS = 2_000;

/** A card's diff is kept whole up to this many bytes of unified diff text. */
export const DIFF_WHOLE_MAX_BYTES = 64 * 1024;

/** Above DIFF_WHOLE_MAX_BYTES the card keeps this many lines of the diff. */
export const DIFF_TRUNCATED_LINES = 400;

/** Lines of context around each hunk of a card's unified diff. */
export const DIFF_CONTEXT_LINES = 3;

/** A turn stops after this many model steps. */
export const TURN_MAX_STEPS = 200;

/** After this many failed finish calls in a row (Stop hooks failing) the turn ends. */
export const MAX_FAILED_FINISHES = 5;

/** A failing Stop hook's output goes back to the model cut to this many bytes. */
export const HOOK_OUTPUT_MAX_BYTES = 16 * 1024;

/** A tool call's arguments larger than this are stored as a blob, not inline in events.jsonl. */
export const EVENT_INLINE_MAX_BYTES = 64 * 1024;

/** write_file and search_replace refuse to replace an existing file larger than this: its diff could not be shown on a card. */
export const REPLACE_MAX_BYTES = 8 * 1024 * 1024;

/** AGENTS.md (or CLAUDE.md) goes into the system prompt cut to this size, so one huge file cannot crowd out the conversation. */
export const INSTRUCTIONS_MAX_BYTES = 64 * 1024;

/** .gatehouse/settings.json larger than this is refused with a clear problem rather than read. */
export const WORKSPACE_SETTINGS_MAX_BYTES = 1024 * 1024;

/** A SKILL.md larger than this is skipped (or cut, if it grew after it was listed). */
export const SKILL_MAX_BYTES = 256 * 1024;

/** A skill's `name` longer than this is reported as a problem, not listed. */
export const SKILL_NAME_MAX_CHARS = 200;

/** A skill's `description` longer than this is reported as a problem: every description goes into the system prompt. */
export const SKILL_DESCRIPTION_MAX_CHARS = 1024;

/** grep stops ripgrep after this long and returns what it found, saying it stopped early (a huge tree or a FIFO must not hang a turn). */
export const GREP_TIME_LIMIT_MS = 30_000;

/** A terminal's output is pushed at most this long after it was read, so typing feels immediate while a flood is batched. */
export const TERMINAL_FLUSH_MS = 16;

/** A terminal's buffered output is pushed at once when it reaches this size; the buffer never holds more than one push. */
export const TERMINAL_FLUSH_BYTES = 64 * 1024;

/** terminal.write refuses more than this many characters in one call (a paste is fine; a file's worth is not). */
export const TERMINAL_WRITE_MAX_CHARS = 64 * 1024;

/** terminal.resize refuses columns or rows above this (a mistaken size must not make the pty allocate wildly). */
export const TERMINAL_MAX_CELLS = 1000;

/** A tool result (or a string in an old call's arguments) larger than this is replaced by a stub once masked; smaller ones are kept. */
export const MASK_MIN_BYTES = 1024;

/** The model's reply is kept at most this much room in the context window (less when the model's own cap is lower). */
export const OUTPUT_RESERVE_MAX_TOKENS = 32_000;

/** Past this share of the room left for input, older tool results are masked... */
export const MASK_TRIGGER_SHARE = 0.8;

/**
 * ...until the estimate is back under this share: masking moves in blocks, so the cached prefix
 * is broken once per block, not at every step. Each block writes to the cache again all it keeps
 * whole after the cut, so the cut goes deep: at 0.15 a 60-step turn of 32 KiB reads bills 1.6x
 * (200k window) and 1.5x (128k) the write-once floor, at 0.45 it billed 2.3x and 2.0x
 * (npm run bench -- context). The latest KEEP_RECENT_STEPS results stay whole even when that
 * leaves the request above this share.
 */
export const MASK_TARGET_SHARE = 0.15;

/** The results of this many latest model steps are never masked. */
export const KEEP_RECENT_STEPS = 2;

/** When masking cannot bring the context under this share, the older history is summarised. */
export const COMPACT_TRIGGER_SHARE = 0.7;

/** A summary keeps the latest history whole up to this share of the room; older history goes into the summary. */
export const COMPACT_KEEP_SHARE = 0.15;

/** The summary call may write at most this many tokens. */
export const SUMMARY_MAX_TOKENS = 8_000;

/** A summary lists the person's messages verbatim, each cut to this many bytes (the log keeps them whole). */
export const SUMMARY_USER_MESSAGE_MAX_BYTES = 2 * 1024;

/** Tokens per byte assumed before the provider has reported a count (about 3 bytes a token: cautious for code and JSON). */
export const DEFAULT_TOKENS_PER_BYTE = 1 / 3;

/** Growth since the provider's last count is estimated this much larger, so the estimate errs on the side of room. */
export const ESTIMATE_MARGIN = 1.1;

/** An MCP tool call with no answer by then is a tool error (SPEC §10); the server is not trusted to answer. */
export const MCP_CALL_TIMEOUT_MS = 120_000;

/** An MCP server that has not finished its handshake and tool list by then failed to start. */
export const MCP_START_TIMEOUT_MS = 60_000;

/** An MCP tool's result reaches the model capped like run's output: head plus tail of this many bytes. */
export const MCP_RESULT_MAX_BYTES = 64 * 1024;

/** The last bytes of an MCP server's stderr kept to show why it failed. */
export const MCP_STDERR_TAIL_BYTES = 4 * 1024;

/** The largest single message an MCP server may send before it is cut off. */
export const MCP_MESSAGE_MAX_BYTES = 16 * 1024 * 1024;

/** An MCP call's arguments larger than this (as formatted JSON) are refused: the card must show all of them. */
export const MCP_ARGS_MAX_BYTES = 64 * 1024;

/** A checkpoint leaves out files larger than this (and says so), so one build artefact cannot grow the store by gigabytes. */
export const CHECKPOINT_FILE_MAX_BYTES = 5 * 1024 * 1024;

/** A workspace's checkpoint store is kept under this many bytes by default; the oldest snapshots go first. */
export const CHECKPOINT_STORE_DEFAULT_LIMIT_BYTES = 2 * 1024 * 1024 * 1024;

/** A checkpoint names at most this many skipped paths; the rest are counted. */
export const CHECKPOINT_SKIPPED_MAX = 50;

/** A Changes view carries diffs for at most this many files; the rest are listed without one. */
export const CHANGES_DIFF_MAX_FILES = 200;
