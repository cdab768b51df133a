// The bounds moved to @baton/test-corpus so every package's statistical tests share them; this path
// stays for tests written against it on other branches.
export { lowerShareBound, upperShareBound } from '@baton/test-corpus/share-bounds';
