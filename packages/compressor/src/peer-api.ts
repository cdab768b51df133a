/** The parts of `@baton/fallback` this package calls, in one place. */
export {
  clipText,
  createReceipt,
  redactMessages,
  redactSecrets,
  renderHandoff,
} from '@baton/fallback';
