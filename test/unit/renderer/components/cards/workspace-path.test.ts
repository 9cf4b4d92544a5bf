import { describe, expect, it } from 'vitest';
import { workspaceRelative } from '../../../../../renderer/src/components/cards/workspace-path';

describe('a path as a card names it', () => {
  it('is relative inside the workspace', () => {
    expect(workspaceRelative('/home/me/proj', '/home/me/proj/src/a.ts')).toBe('src/a.ts');
    expect(workspaceRelative('/home/me/proj/', '/home/me/proj/src/a.ts')).toBe('src/a.ts');
    expect(workspaceRelative('/home/me/proj', '/home/me/proj')).toBe('.');
  });

  it('stays absolute outside it, including a sibling that shares the prefix', () => {
    expect(workspaceRelative('/home/me/proj', '/home/me/project-2/a.ts')).toBe('/home/me/project-2/a.ts');
    expect(workspaceRelative('/home/me/proj', '/etc/hosts')).toBe('/etc/hosts');
  });

  it('understands Windows separators', () => {
    expect(workspaceRelative('C:\\src\\proj', 'C:\\src\\proj\\a.ts')).toBe('a.ts');
  });
});
