export type {
  AppliedStrategy,
  CompactionEvent,
  CompressionStrategy,
  CompressResult,
} from './types.js';
