/**
 * Test connection: sends one tiny request with the model setting as the form has it (saved or
 * not) and says in words what came back: it works, the key was refused, the model was not
 * found, or the server is unreachable (with the URL tried).
 */
import { useState } from 'react';
import type { ConnectionTest, ModelConfig } from '../../../../shared/contract';
import { useCall } from '../../api/use-call';
import { modelFrom, type ModelForm } from './model-form';

interface Tried extends ConnectionTest {
  /** The form the answer is about. */
  form: string;
}

export interface ConnectionTester {
  testing: boolean;
  /** The answer about the form as it is now; none once the form was edited. */
  result: ConnectionTest | null;
  test(): void;
}

export function useConnectionTest(form: ModelForm): ConnectionTester {
  /** The first argument is the form the test is about. */
  const testing = useCall((api, _form: string, model: ModelConfig) => api['settings.test']({ model }));
  /** A form that cannot make a model setting answers at once, without a call; the next test clears it. */
  const [invalid, setInvalid] = useState<Tried | null>(null);
  const asked = testing.args?.[0] ?? '';
  const tried: Tried | null =
    invalid ??
    (testing.error !== null
      ? { outcome: 'failed', message: testing.error, form: asked }
      : testing.data !== undefined
        ? { ...testing.data, form: asked }
        : null);

  const run = () => {
    const snapshot = JSON.stringify(form);
    const model = modelFrom(form);
    if ('error' in model) return setInvalid({ outcome: 'failed', message: model.error, form: snapshot });
    setInvalid(null);
    void testing.run(snapshot, model);
  };

  return {
    testing: testing.pending,
    // A result speaks of the setting it tried: once the form says something else, it is not shown.
    result: tried && tried.form === JSON.stringify(form) ? tried : null,
    // One test at a time: a second click while one waits does nothing.
    test: () => {
      if (!testing.pending) run();
    },
  };
}

export function TestConnectionButton({ tester }: { tester: ConnectionTester }) {
  return (
    <button
      type="button"
      className="test-connection"
      // aria-disabled rather than disabled, so focus stays on the button while it waits.
      aria-disabled={tester.testing}
      aria-busy={tester.testing}
      onClick={tester.test}
    >
      {tester.testing && <span className="spinner" aria-hidden="true" />}
      {tester.testing ? 'Testing…' : 'Test connection'}
    </button>
  );
}

export function ConnectionResult({ tester }: { tester: ConnectionTester }) {
  const { testing, result } = tester;
  if (testing)
    return (
      <p className="field-help connection-result" role="status">
        Sending one short request…
      </p>
    );
  if (!result) return null;
  const works = result.outcome === 'works';
  return (
    <p className={`connection-result ${works ? 'settings-ok' : 'dialog-error'}`} role={works ? 'status' : 'alert'}>
      {result.message}
    </p>
  );
}
