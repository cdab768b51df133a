import { corpusSkipReason, loadTranscripts } from '@baton/test-corpus';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

if (corpusSkipReason !== undefined)
  console.log(`destructive-redaction check skipped: ${corpusSkipReason}`);

/**
 * The dev transcripts are public, anonymised agent recordings taken to hold no live credential, so
 * every finding in them destroys ordinary work (code, paths, prose) the next model needs. The bench
 * reports the same count; this keeps a rule change from raising it unnoticed, on every transcript
 * the corpus holds (it grows).
 */
describe.skipIf(corpusSkipReason !== undefined)(
  'destructive redactions on the dev transcripts',
  () => {
    it('stay at or under 0.5 per million characters', () => {
      let characters = 0;
      const findings: string[] = [];
      const walk = (value: unknown): void => {
        if (typeof value === 'string') {
          characters += value.length;
          for (const finding of redactSecrets(value).findings) {
            // The kind and length only: a real secret in a future transcript must not reach the log.
            findings.push(`${finding.kind} (${finding.end - finding.start} chars)`);
          }
        } else if (Array.isArray(value)) value.forEach(walk);
        else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
      };
      for (const transcript of loadTranscripts()) walk(transcript.messages);
      expect(characters).toBeGreaterThan(0);
      expect((findings.length / characters) * 1e6, findings.join(', ')).toBeLessThanOrEqual(0.5);
    });
  },
);
