export {
  HANDOFF_FOOTER,
  HANDOFF_HEADER,
  HANDOFF_SECTIONS,
  type HandoffSectionKey,
  type HandoffSections,
} from './handoff-layout.js';
