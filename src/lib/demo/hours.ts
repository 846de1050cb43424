/**
 * Weekly working hours of the demo hosts, as written in `DEMO_HOURS`, e.g.
 * `Mon-Fri 10:00-13:00 14:00-18:00; Sat 10:00-13:00`: groups separated by `;`, each a day or a
 * range of days (Mon…Sun, a range may wrap: `Sat-Mon`) followed by one or more `HH:MM-HH:MM`
 * windows, in the provider's time zone (`DEMO_TIMEZONE`). A day named twice gets both groups' windows.
 */

/** One window of a day, in minutes after local midnight (`start` < `end` ≤ 1440). */
export type HoursWindow = { start: number; end: number };

/** Windows per weekday, index 0 = Sunday … 6 = Saturday (as `Date.prototype.getDay`). */
export type WeeklyHours = HoursWindow[][];

const dayNames = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const windowPattern = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$/;

function parseDay(name: string, group: string): number {
  const day = dayNames.indexOf(name.toLowerCase());
  if (day < 0)
    throw new Error(`DEMO_HOURS: unknown day "${name}" in "${group}" (use Mon, Tue, … Sun).`);
  return day;
}

function parseDays(spec: string, group: string): number[] {
  const [from, to, extra] = spec.split('-');
  if (extra !== undefined || !from)
    throw new Error(`DEMO_HOURS: bad day range "${spec}" in "${group}".`);
  const first = parseDay(from, group);
  const last = to === undefined ? first : parseDay(to, group);
  const days = [first];
  for (let day = first; day !== last;) {
    day = (day + 1) % 7;
    days.push(day);
  }
  return days;
}

function parseWindow(spec: string, group: string): HoursWindow {
  const match = windowPattern.exec(spec);
  if (!match)
    throw new Error(`DEMO_HOURS: bad time window "${spec}" in "${group}" (use HH:MM-HH:MM).`);
  const start = Number(match[1]) * 60 + Number(match[2]);
  const end = Number(match[3]) * 60 + Number(match[4]);
  if (end > 1440 || end <= start) {
    throw new Error(
      `DEMO_HOURS: window "${spec}" in "${group}" must end after it starts, by 24:00.`,
    );
  }
  return { start, end };
}

/**
 * Parses `DEMO_HOURS` into windows per weekday, each day's windows sorted by start.
 * @throws Error naming the faulty part: unknown day, malformed or empty window, overlapping windows,
 * or no group at all.
 */
export function parseWeeklyHours(text: string): WeeklyHours {
  const week: WeeklyHours = Array.from({ length: 7 }, () => []);
  const groups = text
    .split(';')
    .map((group) => group.trim())
    .filter(Boolean);
  if (groups.length === 0) throw new Error('DEMO_HOURS: no hours given.');
  for (const group of groups) {
    const [days, ...windows] = group.split(/\s+/);
    if (windows.length === 0) throw new Error(`DEMO_HOURS: "${group}" names no time window.`);
    const parsed = windows.map((spec) => parseWindow(spec, group));
    for (const day of parseDays(days!, group)) for (const range of parsed) week[day]!.push(range);
  }
  for (const [day, windows] of week.entries()) {
    windows.sort((a, b) => a.start - b.start);
    for (let i = 1; i < windows.length; i++) {
      if (windows[i]!.start < windows[i - 1]!.end) {
        throw new Error(`DEMO_HOURS: overlapping windows on ${dayNames[day]}.`);
      }
    }
  }
  return week;
}
