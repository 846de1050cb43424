import '@test/quiet-logs';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs } from '../../delivery/queue/schema';
import { backends, backendTitle } from '@test/databases';
import { useEnquiryDatabase } from '@test/enquiry-database';
import { deps, formData, request } from '@test/enquiry';
import { leads } from './schema';
import { submitEnquiry } from './submit';
import { csvCell } from './csv';
import { exportLeadsCsv, listLeads, type LeadSummary } from './inbox';
import { eraseEnquiriesFrom } from './personal-data';
import { listSpam, releaseSpam } from './quarantine';

describe('csvCell', () => {
  it.each([
    ['=1+2', `"'=1+2"`],
    ['+SUM(A1)', `"'+SUM(A1)"`],
    ['-2', `"'-2"`],
    ['@cmd', `"'@cmd"`],
    ['\tTab', `"'\tTab"`],
    ['\rCR', `"'\rCR"`],
    ['say "hi", ok', `"say ""hi"", ok"`],
    ['line\nbreak', `"line\nbreak"`],
    ['plain', `"plain"`],
  ])('writes %j as %s', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('stored enquiries: inbox, export, quarantine, erasure by address', backend),
    () => {
      const database = useEnquiryDatabase(backend.kind);
      const { submit } = database;

      it('exports CSV with formula cells neutralised and quotes escaped', async () => {
        await submit({
          firstName: '=HYPERLINK("http://x.example","click")',
          organization: '+cmd|calc',
          subject: '@SUM(1)',
          message: '-1\n"quoted"',
        });
        const csv = await exportLeadsCsv(database.db);
        const [header, row] = csv.split('\r\n');
        expect(header).toBe(
          '"Reference","Received (UTC)","First Name","Last Name","Email","Organization","Subject","Message",' +
            '"First page of the visit","Referring site","Campaign source (utm_source)",' +
            '"Campaign medium (utm_medium)","Campaign (utm_campaign)","Suppressed","Delivery"',
        );
        expect(row).toContain(`"'=HYPERLINK(""http://x.example"",""click"")"`);
        expect(row).toContain(`"'+cmd|calc"`);
        expect(row).toContain(`"'@SUM(1)"`);
        expect(row).toContain(`"'-1\n""quoted"""`);
        expect(row).toMatch(/"email pending"$/);
      });

      it('deletes every enquiry and job of one address, case-insensitively, and nothing else', async () => {
        await submit({ email: 'asha@hospital.example' });
        await submit({ email: 'Asha@Hospital.Example' });
        await submit({ email: 'other@hospital.example' });
        const erased = await database.db.transaction((tx) =>
          eraseEnquiriesFrom(tx, ' ASHA@hospital.example '),
        );
        expect({ enquiries: erased.enquiries, jobs: erased.jobs }).toEqual({
          enquiries: 2,
          jobs: 2,
        });
        const rest = await listLeads(database.db);
        expect(rest.map((row) => row.email)).toEqual(['other@hospital.example']);
        expect(await database.db.select().from(jobs)).toHaveLength(1);
        const leftovers = await database.db
          .select()
          .from(leads)
          .where(eq(leads.email, 'asha@hospital.example'));
        expect(leftovers).toHaveLength(0);
        expect(JSON.stringify(await exportLeadsCsv(database.db))).not.toMatch(/asha@/i);
      });

      const quarantine = (values: Parameters<typeof formData>[0]) =>
        submitEnquiry(formData(values, { honeypot: 'x' }), request(), deps(database.db));

      it('leaves quarantined enquiries out of list and export unless asked, and lists them for review without the body', async () => {
        await submit({ subject: 'real' });
        await quarantine({ subject: 'spammy', message: 'Buy now' });
        expect((await listLeads(database.db)).map((row) => row.subject)).toEqual(['real']);
        expect(
          (await listLeads(database.db, { includeSpam: true }))
            .map((row) => [row.subject, row.verdict])
            .sort(),
        ).toEqual([
          ['real', 'lead'],
          ['spammy', 'spam'],
        ]);
        expect(await exportLeadsCsv(database.db)).not.toContain('spammy');
        const withSpam = (await exportLeadsCsv(database.db, { includeSpam: true })).split('\r\n');
        expect(withSpam[0]).toMatch(/"Delivery","Verdict"$/);
        expect(withSpam.find((line) => line.includes('spammy'))).toMatch(/"spam"$/);

        const [spam] = await listSpam(database.db);
        expect(spam).toEqual({
          reference: expect.stringMatching(/^NH-/),
          createdAt: expect.any(Date),
          reason: 'honeypot',
          email: expect.any(String),
          subject: 'spammy',
        });
        expect((await listSpam(database.db, { withMessage: true }))[0]!.message).toBe('Buy now');
        // Released: queued like any lead, the e-mail and one job per webhook endpoint.
        expect(
          await releaseSpam(database.db, spam!.reference, {
            webhookUrls: ['https://crm.example/hook'],
          }),
        ).toBe('released');
        expect(await listSpam(database.db)).toEqual([]);
        const summary = (rows: LeadSummary[]) =>
          rows
            .map((row) => [
              row.subject,
              row.deliveries.map((job) => `${job.channel} ${job.status}`).join(', '),
            ])
            .sort();
        expect(summary(await listLeads(database.db))).toEqual([
          ['real', 'email pending'],
          ['spammy', 'email pending, webhook pending'],
        ]);
      });
    },
  );
}
