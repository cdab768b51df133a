import { corpusSkipReason, loadTranscripts } from '@baton/test-corpus';
import type { SessionStoreContractOptions } from '../test/index.js';
import type { SessionMessage } from '../types.js';
import { describeRecallContract } from './recall-contract.js';

/** What Baton's own runs of the exported contract add: the corpus transcripts and recall. */
export const contractOptions: SessionStoreContractOptions = {
  ...(corpusSkipReason === undefined
    ? {
        transcripts: () =>
          loadTranscripts().map(({ name, messages }) => ({
            name,
            messages: messages as SessionMessage[],
          })),
      }
    : {}),
  extend: describeRecallContract,
};
