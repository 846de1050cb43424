import type { LucideIcon } from 'lucide-react';

/** A feature group of the About Us page (spec §1: eight groups, two of them named). */
export type FeatureGroup = {
  title: string;
  text: string;
  icon: LucideIcon;
};

/** About Us content. Filled in by the content writer; claims only what the spec supports. */
export const about = {
  intro: ['TODO'],
  openSource: 'TODO',
  featureGroups: [] as FeatureGroup[],
};
