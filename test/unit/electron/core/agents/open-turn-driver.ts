/**
 * A driver for the gate's MCP face's tests: its turn stays open (as an external agent's
 * does while the agent works) until the test ends it or the person cancels, and it shows
 * that turn through a LiveTurnDoor. Before logging the turn's end it waits for the calls
 * still running, as the ACP driver must.
 */
import type { LiveTurn, LiveTurnDoor } from '../../../../../electron/core/agents/live-turn.js';
import type {
  DriverFactory,
  DriverSeam,
  DriverTurn,
  SessionDriver,
} from '../../../../../electron/core/sessions/session-driver.js';

export interface OpenTurnDriver extends DriverFactory {
  seams: DriverSeam[];
  door: LiveTurnDoor;
  /** Ends the live turn as finished. */
  end(): void;
  /** Awaited before `turn_ended` is logged: the MCP face's idle(). */
  idle: () => Promise<void>;
}

export function openTurnDriver(): OpenTurnDriver {
  let live: LiveTurn | null = null;
  let finish: (() => void) | undefined;
  const seams: DriverSeam[] = [];

  const driver = (seam: DriverSeam): SessionDriver => {
    seams.push(seam);
    return {
      async run({ turnId, signal, resume }: DriverTurn) {
        if (resume?.card) seam.gate.forget(resume.card.cardId, 'the test driver does not resume');
        live = { turnId, signal };
        await new Promise<void>((resolve) => {
          finish = resolve;
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        await factory.idle();
        live = null;
        await seam.record.append({ type: 'turn_ended', turnId, reason: signal.aborted ? 'cancelled' : 'finished' });
      },
    };
  };
  const factory: OpenTurnDriver = Object.assign(driver, {
    seams,
    door: { current: () => live },
    end: () => finish?.(),
    idle: () => Promise.resolve(),
  });
  return factory;
}
