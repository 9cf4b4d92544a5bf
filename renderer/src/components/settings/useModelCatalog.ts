/**
 * The bundled table of known models, asked of the app once: the answer is kept per api
 * object, so reopening Settings does not ask again (a failed ask is forgotten and retried).
 */
import { useEffect, useState } from 'react';
import type { ModelCatalog } from '../../../../shared/model-facts';
import { useApi } from '../../api/api-context';
import type { RendererApi } from '../../api/types';

export type CatalogState = ModelCatalog | 'loading' | 'unavailable';

const asked = new WeakMap<RendererApi, Promise<ModelCatalog | null>>();

function catalogOf(api: RendererApi): Promise<ModelCatalog | null> {
  let answer = asked.get(api);
  if (!answer) {
    answer = api['models.catalog']({}).then(
      (reply) => (reply.ok ? reply.data : null),
      () => null,
    );
    asked.set(api, answer);
    void answer.then((catalog) => catalog === null && asked.delete(api));
  }
  return answer;
}

export function useModelCatalog(): CatalogState {
  const api = useApi();
  const [state, setState] = useState<CatalogState>('loading');
  useEffect(() => {
    let live = true;
    void catalogOf(api).then((catalog) => live && setState(catalog ?? 'unavailable'));
    return () => {
      live = false;
    };
  }, [api]);
  return state;
}
