/**
 * A card's accessible name (UI.md card rule 7; tests and the end-to-end suite find cards by
 * it) and the short words its transcript record uses.
 */
import { describeCard, type CardBody } from '../../../../shared/cards';
import { workspaceRelative } from './workspace-path';

export function cardLabel(body: CardBody, workspace: string): string {
  return `Permission: ${cardSubject(body, workspace)}`;
}

/** "write src/a.ts", "run npm…", "read /etc/hosts", "call github: create_issue". */
export function cardSubject(body: CardBody, workspace: string): string {
  return describeCard(body, (p) => workspaceRelative(workspace, p)).subject;
}
