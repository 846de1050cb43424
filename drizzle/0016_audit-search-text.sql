-- Hand-written backfill (no schema change): audit rows of inbox reads and exports recorded the
-- search and subject texts typed into the inbox (`q=…`, `subject=…`, see describeFilter in
-- src/lib/console/inbox-filter.ts). They now record only that a search was made; the rows
-- already written are rebuilt the same way from their other filters (values without spaces),
-- so no searched name outlives an erasure.
UPDATE "audit_log"
SET "detail" = concat_ws(' ',
  CASE WHEN "detail" ~ '(^| )q=' THEN 'q=(searched)' END,
  substring("detail" from '(?:^| )(delivery=\S+)'),
  substring("detail" from '(?:^| )(demo=\S+)'),
  substring("detail" from '(?:^| )(from=\S+)'),
  substring("detail" from '(?:^| )(to=\S+)'),
  CASE WHEN "detail" ~ '(^| )subject=' THEN 'subject=(searched)' END,
  substring("detail" from '(?:^| )(page=\d+)$'))
WHERE "action" IN ('read', 'export') AND "detail" ~ '(^| )(q|subject)=';
