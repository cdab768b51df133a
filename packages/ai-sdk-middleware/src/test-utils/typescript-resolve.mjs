// Lets worker processes run the TypeScript sources directly (Node >= 22.18 strips types): the sources
// import siblings as `./x.js`, which resolves to `./x.ts` here, as it does under tsc and vitest.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (specifier.startsWith('.') && specifier.endsWith('.js')) {
        return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
      }
      throw error;
    }
  },
});
