/** The parts of `@baton/fallback` this package calls, in one place. */
export {
  clipMiddle,
  clipText,
  createReceipt,
  hasElisionMarker,
  redactMessages,
  redactSecrets,
  renderHandoff,
} from '@baton/fallback';
