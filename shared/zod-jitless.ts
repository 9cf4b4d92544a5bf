/**
 * zod compiles a fast object parser with `new Function`, after probing once whether eval is
 * allowed. Under the window's CSP (no 'unsafe-eval') that probe raises a
 * securitypolicyviolation on every start, though zod catches the throw. Jitless, zod
 * neither probes nor compiles; parsing is the same, a fraction of a microsecond slower.
 *
 * Imported first by each shared module that builds schemas, so it runs before any schema
 * is made in every context that loads them (window, preload, web page, core), whatever
 * chunks the bundler makes.
 */
import { z } from 'zod';

z.config({ jitless: true });
