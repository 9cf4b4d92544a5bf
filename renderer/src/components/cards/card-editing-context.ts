/**
 * The open card's editing state, handed from PermissionCard (which owns it, since the answer
 * bar needs it too) to the write card's view. Absent in the transcript's records: only the
 * pinned card can be edited.
 */
import { createContext } from 'react';
import type { CardEditing } from './useCardEditing';

export const CardEditingContext = createContext<CardEditing | null>(null);
