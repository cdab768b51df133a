/**
 * True for a name written in letters only, in words of two or more lower-case letters each led by
 * at most a few capitals (`reportSequence`, `partner_email`, `ListTokens`, `backgroundRedAble`): in
 * a sentence or a path, what follows a secret's name or a collection is more often such a name (a
 * route, a field, a handler) than the secret. Random letters of mixed case break that rhythm
 * (`hZEmnoOEYISjra`): a capital stands alone between two others, or a lower-case letter does. The
 * keyed rules, where `=` or `:` says a value follows, do not ask this.
 */
export function readsAsName(value: string): boolean {
  return value.split(/[_-]/).every((part) => namePart.test(part));
}

const namePart = /^(?:[A-Z]{0,3}[a-z]{2,})+[A-Z]{0,3}$|^[a-z]{2,}$|^[A-Z]{2,10}$/;
