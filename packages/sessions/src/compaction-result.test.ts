import type { CompressResult } from '@baton/compressor';
import { describe, expectTypeOf, it } from 'vitest';
import type { CompactionResult, SessionMessage } from './index.js';

describe('CompactionResult', () => {
  it('accepts what @baton/compressor returns, so its result can be recorded as is', () => {
    expectTypeOf<CompressResult<SessionMessage>>().toExtend<CompactionResult>();
  });
});
