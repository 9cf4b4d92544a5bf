/**
 * AI SDK 7 does not throw on a bad tool call. It streams a `tool-call` part with
 * `invalid: true` and `error` set to a NoSuchToolError (unknown name) or an
 * InvalidToolInputError (its cause a JSONParseError for malformed JSON, or a
 * TypeValidationError for input that fails the schema). This turns those into a short
 * message the model can act on.
 */
import { InvalidToolInputError, JSONParseError, NoSuchToolError, TypeValidationError } from 'ai';

interface Issue {
  path?: readonly PropertyKey[];
  message: string;
}

function issuesOf(error: TypeValidationError): Issue[] | undefined {
  const issues = (error.cause as { issues?: unknown } | undefined)?.issues;
  return Array.isArray(issues) ? (issues as Issue[]) : undefined;
}

function describeIssues(issues: Issue[]): string {
  return issues
    .map((issue) => {
      const where = issue.path && issue.path.length > 0 ? issue.path.map(String).join('.') : '(arguments)';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

function describeInput(error: InvalidToolInputError): string {
  const cause = error.cause;
  if (JSONParseError.isInstance(cause)) {
    const reason = cause.cause instanceof Error ? cause.cause.message : 'not JSON';
    return `The arguments for ${error.toolName} are not valid JSON (${reason}). Send the arguments as one JSON object.`;
  }
  if (TypeValidationError.isInstance(cause)) {
    const issues = issuesOf(cause);
    if (issues) return `Invalid arguments for ${error.toolName}: ${describeIssues(issues)}.`;
  }
  return error.message;
}

export function describeInvalidToolCall(error: unknown): string {
  if (NoSuchToolError.isInstance(error)) {
    const available = error.availableTools?.join(', ') ?? 'none';
    return `There is no tool named "${error.toolName}". Available tools: ${available}.`;
  }
  if (InvalidToolInputError.isInstance(error)) return describeInput(error);
  return error instanceof Error ? error.message : String(error);
}
