/** The settings form's fields, and the model setting they make (checked again by the app). */
import type { ModelConfig, Provider } from '../../../../shared/contract';

export interface ModelForm {
  provider: Provider;
  modelId: string;
  baseURL: string;
  maxOutputTokens: string;
}

export function formFrom(model: ModelConfig | null): ModelForm {
  return {
    provider: model?.provider ?? 'anthropic',
    modelId: model?.modelId ?? '',
    baseURL: model?.baseURL ?? '',
    maxOutputTokens: model?.maxOutputTokens !== undefined ? String(model.maxOutputTokens) : '',
  };
}

/** The model setting, or words that say what is wrong with the form. */
export function modelFrom(form: ModelForm): ModelConfig | { error: string } {
  const modelId = form.modelId.trim();
  if (modelId === '') return { error: 'Model id is empty.' };
  const model: ModelConfig = { provider: form.provider, modelId };
  if (form.baseURL.trim() !== '') model.baseURL = form.baseURL.trim();
  const max = form.maxOutputTokens.trim();
  if (max !== '') {
    const n = Number(max);
    if (!Number.isInteger(n) || n <= 0) return { error: 'Max output tokens must be a whole number above 0, or empty.' };
    model.maxOutputTokens = n;
  }
  return model;
}
