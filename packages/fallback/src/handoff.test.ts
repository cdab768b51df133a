import { describe, expect, it } from 'vitest';
import {
  HANDOFF_FOOTER,
  HANDOFF_HEADER,
  HANDOFF_SECTIONS,
  parseHandoff,
  renderHandoff,
} from './index.js';

describe('renderHandoff / parseHandoff', () => {
  it('renders non-empty sections in layout order between header and footer', () => {
    const text = renderHandoff({
      counts: 'Messages: 3.',
      latestAsk: 'fix the build',
      files: '  ',
      goal: 'ship it',
    });
    expect(text.startsWith(HANDOFF_HEADER)).toBe(true);
    expect(text.endsWith(HANDOFF_FOOTER)).toBe(true);
    const titles = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    const expected = HANDOFF_SECTIONS.filter((section) =>
      ['latestAsk', 'goal', 'counts'].includes(section.key),
    ).map((section) => section.title);
    expect(titles).toEqual(expected);
    expect(text).not.toContain('Relevant files');
  });

  it('round-trips sections', () => {
    const sections = {
      latestAsk: 'do X\nand Y',
      blockers: '- boom\n- bang',
      counts: 'Messages: 2.',
    };
    expect(parseHandoff(renderHandoff(sections))).toEqual(sections);
  });

  it('returns undefined for text that is not a Baton handoff', () => {
    expect(parseHandoff('## Goal\nsomething')).toBeUndefined();
    expect(parseHandoff(42 as unknown as string)).toBeUndefined();
  });

  it('leaves out the footer when asked', () => {
    expect(renderHandoff({ goal: 'g' }, { footer: '' }).includes(HANDOFF_FOOTER)).toBe(false);
  });
});
