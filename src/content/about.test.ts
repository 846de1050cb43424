import { describe, expect, it } from 'vitest';
import { about } from './about';
import { site } from './site';

describe('about content', () => {
  it('has exactly eight feature groups, each with a title, text and icon', () => {
    expect(about.featureGroups).toHaveLength(8);
    for (const group of about.featureGroups) {
      expect(group.title.trim()).not.toBe('');
      expect(group.text.trim()).not.toBe('');
      expect(group.icon).toBeTruthy();
    }
    const titles = about.featureGroups.map((group) => group.title);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('includes the two feature groups the spec names', () => {
    const titles = about.featureGroups.map((group) => group.title);
    expect(titles).toContain('Multilingual support');
    expect(titles).toContain('Role-based access control');
  });

  it('states the founding year 2024 from the site constants', () => {
    expect(site.foundedYear).toBe(2024);
    expect(about.intro.join(' ')).toContain('established in 2024');
  });

  it('mentions the open-source contributions', () => {
    expect(about.openSource).toMatch(/contributes to open-source health projects/);
  });

  it('contains no placeholder text', () => {
    const texts = [
      ...about.intro,
      about.openSource,
      ...about.featureGroups.flatMap((group) => [group.title, group.text]),
    ];
    expect(about.intro.length).toBeGreaterThanOrEqual(1);
    for (const text of texts) {
      expect(text.trim()).not.toBe('');
      expect(text).not.toMatch(/TODO|lorem|ipsum|TBD/i);
    }
  });
});
