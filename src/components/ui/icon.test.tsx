import { renderToStaticMarkup } from 'react-dom/server';
import { ArrowRight, CheckCircle2, ChevronRight, Mail, Menu } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import { lucideIconData, StaticIcon } from './icon';

describe('StaticIcon', () => {
  it('draws the same markup as lucide-react, for plain and alias names', () => {
    for (const icon of [ArrowRight, CheckCircle2, ChevronRight, Mail, Menu]) {
      const Lucide = icon;
      const theirs = renderToStaticMarkup(<Lucide aria-hidden="true" className="mt-0.5 size-2" />);
      const ours = renderToStaticMarkup(
        <StaticIcon icon={icon} aria-hidden="true" className="mt-0.5 size-2" />,
      );
      expect(ours).toBe(theirs);
    }
  });

  it('is hidden from assistive technology unless labelled, as lucide-react does', () => {
    expect(renderToStaticMarkup(<StaticIcon icon={Menu} />)).toBe(renderToStaticMarkup(<Menu />));
    expect(renderToStaticMarkup(<StaticIcon icon={Menu} aria-label="Menu" />)).toBe(
      renderToStaticMarkup(<Menu aria-label="Menu" />),
    );
    expect(renderToStaticMarkup(<StaticIcon icon={Menu} aria-label="Menu" />)).not.toContain(
      'aria-hidden',
    );
  });

  it('reads the drawing of an icon once', () => {
    expect(lucideIconData(Menu)).toBe(lucideIconData(Menu));
    expect(lucideIconData(Menu).node.length).toBeGreaterThan(0);
  });
});
