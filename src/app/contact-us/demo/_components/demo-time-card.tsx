import type { LucideIcon } from 'lucide-react';
import type { BookedDemo } from '@/server/features/demos/types';
import { cn } from '@/lib/utils';
import { VisitorTime } from './visitor-time';

/** How the card reads: `booked` (brand green) or `held` (amber: waiting for the e-mail confirmation). */
const tones = {
  booked: {
    box: 'border-brand-200 bg-brand-50',
    icon: 'text-brand-700',
    testId: 'booked-time',
  },
  held: {
    box: 'border-amber-700 bg-amber-50 text-amber-950',
    icon: '',
    testId: 'held-time',
  },
} as const;

/**
 * The demo's time after booking: `icon`, the day and time in the provider's zone with the host,
 * the visitor's own zone (with JavaScript), then `children` (what happens next).
 */
export function DemoTimeCard({
  demo,
  tone,
  icon: Icon,
  children,
}: {
  demo: BookedDemo;
  tone: keyof typeof tones;
  icon: LucideIcon;
  children: React.ReactNode;
}) {
  const style = tones[tone];
  return (
    <div className={cn('rounded border p-2 sm:p-3', style.box)}>
      <Icon aria-hidden="true" className={cn('size-4', style.icon)} />
      <p className="mt-1 text-lg" data-testid={style.testId}>
        <strong>
          {demo.day}, {demo.time}
        </strong>{' '}
        with {demo.hostName}.
      </p>
      <VisitorTime start={demo.start} />
      {children}
    </div>
  );
}
