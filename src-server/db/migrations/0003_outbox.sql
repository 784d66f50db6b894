-- 0003_outbox: outgoing e-mail kept in the database (DESIGN.md "Server": nothing is lost when the
-- mail server is down). A feature inserts a row in the same transaction as the change it reports;
-- the outbox worker sends due rows and records the outcome.

create table outbox_mail (
  id              bigint generated always as identity primary key,
  recipient       text not null check (recipient ~ '^[^\s<>@]+@[^\s<>@]+$'),
  subject         text not null check (length(subject) between 1 and 998),
  text_body       text not null,
  html_body       text,
  -- [{ filename, contentType, content }] with text content (an .ics file).
  attachments     jsonb not null default '[]' check (jsonb_typeof(attachments) = 'array'),
  -- queued: waiting for next_attempt_at; sending: claimed by a worker until next_attempt_at
  -- (a worker that died mid-send leaves it claimable again); sent; failed: gave up, kept.
  status          text not null default 'queued' check (status in ('queued', 'sending', 'sent', 'failed')),
  attempts        int not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null,
  -- The SMTP error code and reply code only: never an address, a name or the message text.
  last_error      text check (length(last_error) <= 200),
  -- What the mail is about (e.g. 'booking_confirmation'), for the development page and support.
  kind            text not null check (kind ~ '^[a-z_]{1,50}$'),
  created_at      timestamptz not null,
  sent_at         timestamptz,
  check ((status = 'sent') = (sent_at is not null))
);

-- The worker's claim query: due rows in time order.
create index outbox_mail_due on outbox_mail (next_attempt_at) where status in ('queued', 'sending');
-- The development page: most recent first.
create index outbox_mail_created on outbox_mail (created_at desc, id desc);
