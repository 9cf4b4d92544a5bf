/**
 * A second driver for tests: no model, only a script of tool calls per turn. It drives a
 * session through the SessionDriver seam alone, as an external agent's driver will, so
 * whatever it raises (cards, checkpoints, transcript rows) comes from the seam.
 */
import type {
  DriverFactory,
  DriverSeam,
  DriverTurn,
  SessionDriver,
} from '../../../../../electron/core/sessions/session-driver.js';

export interface ScriptedCall {
  tool: string;
  args: unknown;
}

class ScriptedDriver implements SessionDriver {
  constructor(
    private readonly seam: DriverSeam,
    private readonly nextScript: () => readonly ScriptedCall[],
  ) {}

  async run({ turnId, signal, resume }: DriverTurn): Promise<void> {
    const { record } = this.seam;
    if (resume) {
      // A script cannot take up a wait: it says so and ends, as a driver that cannot resume would.
      if (resume.card) this.seam.gate.forget(resume.card.cardId, 'the scripted driver does not resume');
      await record.append({ type: 'turn_ended', turnId, reason: 'interrupted', message: 'not resumed' });
      return;
    }
    for (const { tool, args } of this.nextScript()) {
      const toolCallId = this.seam.newId();
      await record.append({ type: 'tool_call', turnId, toolCallId, tool, args });
      try {
        const r = await this.seam.gate.run(
          { turnId, toolCallId, tool, args },
          { signal, onOutput: (stream, chunk) => this.seam.onOutput(toolCallId, stream, chunk) },
        );
        const output = r.ok ? r.output : r.error;
        await record.append({ type: 'tool_result', turnId, toolCallId, tool, ok: r.ok, output, details: r.details });
      } catch (err) {
        if (!signal.aborted) throw err;
        const output = 'cancelled by the user before this call finished';
        await record.append({ type: 'tool_result', turnId, toolCallId, tool, ok: false, output });
        await record.append({ type: 'turn_ended', turnId, reason: 'cancelled' });
        return;
      }
    }
    await record.append({ type: 'turn_ended', turnId, reason: 'finished' });
  }
}

/** A driver factory taking one script per turn, in order; the seams it was given are kept for the tests to look at. */
export function scriptedDriver(turns: readonly (readonly ScriptedCall[])[]): DriverFactory & { seams: DriverSeam[] } {
  const left = [...turns];
  const seams: DriverSeam[] = [];
  const factory = (seam: DriverSeam) => {
    seams.push(seam);
    return new ScriptedDriver(seam, () => left.shift() ?? []);
  };
  return Object.assign(factory, { seams });
}
