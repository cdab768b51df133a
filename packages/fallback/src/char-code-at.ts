// `text.charCodeAt(i)` looks `charCodeAt` up on `text` at every character through the call site's
// property cache, which V8 keys by the string's internal form (flat or joined, sliced, one or two
// bytes a character, …): past four forms (real transcripts bring them) the site goes megamorphic
// and the optimised loop makes a generic lookup per character, 2x slower or worse. Called through
// the prototype's function (`charCodeAt.call(text, i)`), nothing is looked up on `text`; each call
// site keeps its own feedback.
export const charCodeAt = String.prototype.charCodeAt;
