/**
 * The bundled table of known models, asked of the app once: the answer is kept per api
 * object, so reopening Settings does not ask again (a failed ask is forgotten and retried).
 */
import { useEffect } from 'react';
import type { Reply } from '../../../../shared/contract';
import type { ModelCatalog } from '../../../../shared/model-facts';
import { useApi } from '../../api/api-context';
import type { RendererApi } from '../../api/types';
import { settled, useCall } from '../../api/use-call';

export type CatalogState = ModelCatalog | 'loading' | 'unavailable';

const asked = new WeakMap<RendererApi, Promise<Reply<ModelCatalog>>>();

function catalogOf(api: RendererApi): Promise<Reply<ModelCatalog>> {
  let answer = asked.get(api);
  if (!answer) {
    answer = settled(api['models.catalog']({}));
    asked.set(api, answer);
    void answer.then((reply) => !reply.ok && asked.delete(api));
  }
  return answer;
}

export function useModelCatalog(): CatalogState {
  const api = useApi();
  const catalog = useCall(catalogOf);
  const { run } = catalog;
  // Asked again only for another api object (whose answer is kept apart).
  useEffect(() => {
    void run();
  }, [api, run]);
  return catalog.error !== null ? 'unavailable' : (catalog.data ?? 'loading');
}
