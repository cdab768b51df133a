import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { CompressResult } from '@baton/compressor';
import { describe, expectTypeOf, it } from 'vitest';
import type { CompactionResult, SessionMessage, SessionStore, StoredMessage } from './index.js';

describe('types shared with @baton/compressor and the AI SDK', () => {
  it('accepts what the compressor returns, so its result can be recorded as is', () => {
    expectTypeOf<CompressResult<SessionMessage>>().toExtend<CompactionResult>();
    expectTypeOf<CompressResult<ModelMessage>>().toExtend<CompactionResult<ModelMessage>>();
  });

  it('takes and returns AI SDK ModelMessages without casts', () => {
    expectTypeOf<ModelMessage>().toExtend<SessionMessage>();
    type Store = SessionStore;
    expectTypeOf<Store['appendMessages']>().toBeCallableWith('id', [] as ModelMessage[]);
    expectTypeOf<Store['recordCompaction']>().toBeCallableWith(
      'id',
      {} as CompressResult<ModelMessage>,
    );
    expectTypeOf<ReturnType<Store['getMessages']>>().resolves.toEqualTypeOf<StoredMessage[]>();
  });
});
