/**
 * Lets a bench import src/test-utils/*.ts under plain Node: those files import their siblings as
 * `./x.js` (as vitest and tsc expect), which Node's type stripping does not map to `./x.ts`.
 * Import this first and the test utilities dynamically after it.
 */
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

registerHooks({
  resolve(specifier, context, next) {
    if (
      specifier.startsWith('.') &&
      specifier.endsWith('.js') &&
      context.parentURL?.endsWith('.ts')
    ) {
      const url = new URL(specifier, context.parentURL);
      const source = url.href.replace(/\.js$/, '.ts');
      if (!existsSync(fileURLToPath(url)) && existsSync(fileURLToPath(source))) {
        return next(source, context);
      }
    }
    return next(specifier, context);
  },
});
