// Loaded with --import: sends every import of 'electron' to the stand-in beside this file.
import { register } from 'node:module';

const stub = new URL('./electron.mjs', import.meta.url).href;
register(
  'data:text/javascript,' +
    encodeURIComponent(`export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: ${JSON.stringify(stub)}, shortCircuit: true };
  return next(specifier, context);
}`),
);
