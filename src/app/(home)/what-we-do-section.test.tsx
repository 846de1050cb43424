// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { offerings } from '@/content/offerings';
import { NO_OFFERINGS_TEXT, WhatWeDoSection } from './what-we-do-section';

describe('WhatWeDoSection (spec §2, home)', () => {
  it('shows exactly the empty-state text when there are no offerings', () => {
    render(<WhatWeDoSection offerings={[]} lead="Lead" />);
    expect(screen.getByText('No products available at the moment.')).toBeInTheDocument();
    expect(NO_OFFERINGS_TEXT).toBe('No products available at the moment.');
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
  });

  it('lists the four offerings in order, each with title and image', () => {
    render(<WhatWeDoSection offerings={offerings} lead="Lead" />);
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
      'Websites',
      'Softwares',
      'Mobile Applications',
      'Designs',
    ]);
    for (const [index, item] of items.entries()) {
      const img = item.querySelector('img');
      expect(img?.getAttribute('src')).toBe(offerings[index]!.image.src);
      // The size comes from the SVG file itself, so the image reserves its box before it loads.
      expect([img?.getAttribute('width'), img?.getAttribute('height')]).toEqual(['320', '240']);
    }
    expect(screen.queryByText(NO_OFFERINGS_TEXT)).not.toBeInTheDocument();
  });
});
