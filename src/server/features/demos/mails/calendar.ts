import 'server-only';
import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from 'ical-generator';
import { visitorName } from '@/lib/contact-fields';
import type { InvitationFacts, InvitationRecipient } from '../types';

/** The invitation's `UID`: stable for the booking's life, so updates replace the same event (RFC 5545 §3.8.4.7). */
export function invitationUid(bookingId: string, domain: string): string {
  return `demo-${bookingId}@${domain}`;
}

/**
 * `name` fit for a quoted iCalendar parameter value such as `CN="…"`: RFC 5545 (§3.1, `QSAFE-CHAR`)
 * allows neither `"` nor control characters there and has no escape for them (ical-generator's
 * `\"` is not one), so a name such as `x";PARTSTAT=ACCEPTED;X="` could add parameters of its own.
 * Both are removed; the rest of the name is kept.
 */
export function parameterText(name: string): string {
  return name.replace(/["\u0000-\u001f\u007f]/g, '').trim();
}

/**
 * The iCalendar invitation of a booked demo: `METHOD:REQUEST` (RFC 5546 §3.2.2),
 * one `VEVENT` in UTC with the booking's `SEQUENCE`, the host as `ORGANIZER` and both the visitor
 * (to answer) and the host (accepted) as `ATTENDEE`s; the host's meeting link as `LOCATION` and `URL`.
 * With `method` `CANCEL` (RFC 5546 §3.2.5) the same event, `STATUS:CANCELLED`, withdraws it.
 * The visitor's copy (`recipient` `visitor`) names nothing the visitor typed (no name or
 * organisation, no `CN` for them); the host's does. Names in parameters (`CN`) pass through
 * parameterText. Generated with ical-generator; returns
 * the calendar text (CRLF lines, folded).
 */
export function invitationCalendar(
  { booking, lead, host, domain }: InvitationFacts,
  method: 'REQUEST' | 'CANCEL' = 'REQUEST',
  recipient: InvitationRecipient = 'host',
): string {
  const forHost = recipient === 'host';
  const calendar = ical({
    method: method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    prodId: { company: 'Nirmaya Health', product: 'Website demo booking', language: 'EN' },
  });
  calendar.createEvent({
    id: invitationUid(booking.id, domain),
    sequence: booking.sequence,
    stamp: booking.updatedAt,
    start: booking.startsAt,
    end: booking.endsAt,
    status: method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    summary: forHost ? `Nirmaya HIMS demo for ${lead.organization}` : 'Nirmaya HIMS demo',
    description: forHost
      ? `Demo for ${visitorName(lead)} (${lead.organization}), enquiry ${lead.reference}.\nJoin: ${host.meetingUrl}`
      : `Enquiry ${lead.reference}.\nJoin: ${host.meetingUrl}`,
    location: host.meetingUrl,
    url: host.meetingUrl,
    organizer: { name: parameterText(host.name), email: host.email },
    attendees: [
      {
        ...(forHost && { name: parameterText(visitorName(lead)) }),
        email: lead.email,
        role: ICalAttendeeRole.REQ,
        status: ICalAttendeeStatus.NEEDSACTION,
        rsvp: method === 'REQUEST',
      },
      {
        name: parameterText(host.name),
        email: host.email,
        role: ICalAttendeeRole.CHAIR,
        status: ICalAttendeeStatus.ACCEPTED,
      },
    ],
  });
  return calendar.toString();
}
