/**
 * The gate's promise when an external agent drives the sessions (SPEC §14): the same
 * generated histories as gate-promise.test.ts (without MCP servers, racers or kills), each
 * session's turns driven through the ACP driver by the scripted agent in puppet mode, a
 * real process per session, with every invariant checked after every step.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { historyArbitrary } from './history-arbitrary.js';
import { runHistory } from './history-runner.js';
import { describeHistory } from './history.js';

const SEED = 20261206;
const HISTORIES = 60;
/** A loaded run checks a prefix of the same histories, at least MIN_HISTORIES. */
const TIME_LIMIT_MS = 240_000;
const MIN_HISTORIES = 15;

it(`keeps every invariant over ${HISTORIES} generated histories driven by an agent (seed ${SEED})`, async () => {
  let violations: string[] = [];
  const property = fc.asyncProperty(historyArbitrary(), async (history) => {
    const outcome = await runHistory(history, { agent: true }).catch((err: unknown) => ({
      violations: [`the run itself failed: ${(err as Error).stack ?? String(err)}`],
    }));
    if (outcome.violations.length > 0) violations = outcome.violations;
    return outcome.violations.length === 0;
  });
  const details = await fc.check(property, {
    seed: SEED,
    numRuns: HISTORIES,
    interruptAfterTimeLimit: TIME_LIMIT_MS,
    markInterruptAsFailure: false,
  });
  const shrunk = details.counterexample?.[0];
  expect(shrunk ? `${describeHistory(shrunk)}\n${violations.join('\n')}` : '').toBe('');
  console.info(`agent property suite: ${details.numRuns} of ${HISTORIES} histories checked`);
  expect(details.numRuns).toBeGreaterThanOrEqual(details.interrupted ? MIN_HISTORIES : HISTORIES);
}, 600_000);
