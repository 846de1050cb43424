import type { SourcesReport } from '@/server/features/sources';

const WIDTH = 600;
const HEIGHT = 160;

/**
 * The views per day as bars, with each day's unique visitors as a darker bar inside: a
 * server-rendered SVG (no script, no library) that scales to its box, so it reads at 375 px. Its
 * figures are in the table beside it; the image is described for screen readers by its title.
 */
export function DailyChart({ days }: { days: SourcesReport['days'] }) {
  const max = Math.max(1, ...days.map((day) => day.views));
  const step = WIDTH / Math.max(1, days.length);
  const bar = Math.max(1, step * 0.8);
  const total = days.reduce((sum, day) => sum + day.views, 0);
  const title = `Views per day: ${days.length} days shown, ${total} views, busiest day ${max} views.`;
  return (
    <figure className="min-w-0">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="sources-chart-title"
        className="h-auto w-full rounded border border-slate-200 bg-white"
      >
        <title id="sources-chart-title">{title}</title>
        {days.map((day, index) => {
          const x = index * step + (step - bar) / 2;
          const views = (day.views / max) * (HEIGHT - 10);
          const visitors = (day.visitors / max) * (HEIGHT - 10);
          return (
            <g key={day.day}>
              <rect x={x} y={HEIGHT - views} width={bar} height={views} fill="#86efac" />
              <rect x={x} y={HEIGHT - visitors} width={bar} height={visitors} fill="#15803d" />
            </g>
          );
        })}
        <line x1={0} y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} stroke="#334155" />
      </svg>
      <figcaption className="mt-0.5 text-sm text-muted">
        Light bars: views; dark bars: unique visitors. Figures in the table.
      </figcaption>
    </figure>
  );
}
