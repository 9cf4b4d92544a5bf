/**
 * The one `api` object reaches components through context, so a component never builds a
 * request by hand and tests hand in a fake with the same shape.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { RendererApi } from './types';

const ApiContext = createContext<RendererApi | null>(null);

export function ApiProvider({ api, children }: { api: RendererApi; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

export function useApi(): RendererApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside <ApiProvider>');
  return api;
}
