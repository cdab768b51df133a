import { InvalidInputError } from '@baton/tokens';
import {
  HANDOFF_FOOTER,
  HANDOFF_HEADER,
  HANDOFF_SECTIONS,
  type HandoffSections,
} from './handoff-layout.js';

export interface RenderHandoffOptions {
  /** First line. Default: `HANDOFF_HEADER`. Keep the default so `parseHandoff` recognises the text. */
  header?: string;
  /** Last line. Default: `HANDOFF_FOOTER`. Pass `''` to leave it out. */
  footer?: string;
}

/**
 * Renders sections in the shared layout: the header, then `## <title>` and the body of each
 * non-empty section in `HANDOFF_SECTIONS` order, then the footer. Unknown keys are ignored.
 */
export function renderHandoff(
  sections: HandoffSections,
  options: RenderHandoffOptions = {},
): string {
  if (typeof sections !== 'object' || sections === null) {
    throw new InvalidInputError({
      path: 'sections',
      message: 'expected an object of section bodies',
    });
  }
  const blocks: string[] = [options.header ?? HANDOFF_HEADER];
  for (const { key, title } of HANDOFF_SECTIONS) {
    const body = sections[key];
    if (body === undefined) continue;
    if (typeof body !== 'string') {
      throw new InvalidInputError({ path: `sections.${key}`, message: 'expected a string' });
    }
    const trimmed = body.trim();
    if (trimmed === '') continue;
    blocks.push(`## ${title}\n${trimmed}`);
  }
  const footer = options.footer ?? HANDOFF_FOOTER;
  if (footer !== '') blocks.push(footer);
  return blocks.join('\n\n');
}
