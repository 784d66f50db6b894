import { describe, expect, it } from 'vitest';
import { spanNameOf, statementName } from '../../../src-server/platform/tracing/statement-name';

// A statement's span name (src-server/platform/tracing/statement-name.ts): its verb and table from
// the SQL the code wrote, never a literal, a comment or what is inside a subquery.

const name = (sql: string): string => spanNameOf(statementName(sql));

describe('statementName', () => {
  it('names the verb and the table each verb acts on', () => {
    expect(name('select id, starts_at from appointment where booking_key = $1')).toBe('SELECT appointment');
    expect(name('  INSERT INTO audit_log (action, details) values ($1, $2::jsonb)')).toBe('INSERT audit_log');
    expect(name('update only outbox set state = $1 where id = $2')).toBe('UPDATE outbox');
    expect(name('delete from appointment where id = $1 returning id')).toBe('DELETE appointment');
    expect(name('select 1 from public."Clinic" c')).toBe('SELECT public.clinic');
    expect(name('truncate table outbox')).toBe('TRUNCATE outbox');
  });

  it("takes a WITH's own statement, and the top level's table, not a subquery's", () => {
    expect(
      name('with due as (select id from outbox where state = $1) update outbox set state = $2 from due where outbox.id = due.id'),
    ).toBe('UPDATE outbox');
    expect(name('select (select count(*) from audit_log) as n from appointment')).toBe('SELECT appointment');
    expect(name('select * from (select id from appointment) a')).toBe('SELECT');
    expect(name('select 1 from pg_advisory_xact_lock(hashtext($1))')).toBe('SELECT');
    expect(name('select 1')).toBe('SELECT');
  });

  it('never reads a literal or a comment, and names anything unknown SQL', () => {
    expect(name("select 'from patient_secret' as x")).toBe('SELECT');
    expect(name('-- from patient_secret\nselect 1 /* from x */ from clinic')).toBe('SELECT clinic');
    expect(name("select 'it''s' from clinic")).toBe('SELECT clinic');
    expect(name('Ada Lovelace 1985-12-10')).toBe('SQL');
    expect(name('')).toBe('SQL');
    expect(name('begin')).toBe('BEGIN');
  });
});
