/**
 * Where a provider key may travel (SPEC §11): over https anywhere, over plain http only to
 * this machine. A key sent in clear to another host can be read by anyone on the path.
 * Settings refuses such a config, and the chat client refuses to send one that was saved
 * before this rule or carried in an old session's meta.json.
 */
import type { ModelConfig } from './contract.js';

/** 127.0.0.0/8, `localhost` and `[::1]`: traffic to them never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  // The URL parser has already normalised IPv4 (0x7f.1, 2130706433 → 127.0.0.1), so a
  // dotted quad starting with 127 is the whole of the loopback range.
  return /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/** True when a key sent to this base URL stays private: https, or http to loopback. */
export function keepsKeyPrivate(baseURL: string): boolean {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/**
 * Why this config would send a key over plain http, or null when it would not.
 * Anthropic and OpenAI always send one (their SDKs even fall back to the environment's);
 * an OpenAI-compatible server gets one only when `compatibleKey` says one is saved for it.
 */
export function plainHttpKeyProblem(
  config: Pick<ModelConfig, 'provider' | 'baseURL'>,
  compatibleKey: boolean,
): string | null {
  const sendsKey = config.provider !== 'openai-compatible' || compatibleKey;
  if (!sendsKey || config.baseURL === undefined || keepsKeyPrivate(config.baseURL)) return null;
  return (
    `Refusing to send the API key over plain http to ${hostOf(config.baseURL)}: ` +
    'use an https:// base URL, or http:// only on this machine (127.0.0.1, localhost or [::1]).'
  );
}

/** Scheme and host only: a base URL's user, password or query could hold a credential. */
function hostOf(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'an unparsable URL';
  }
}
