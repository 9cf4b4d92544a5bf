/** Where a provider's key comes from, in the settings screen's words. The key itself never reaches the window. */
import type { SettingsView } from '../../../../shared/contract';

export function keySourceWords(source: SettingsView['keys'][keyof SettingsView['keys']]): string {
  if (source === 'env') return 'from the environment';
  if (source === 'settings') return 'saved';
  return 'none';
}
