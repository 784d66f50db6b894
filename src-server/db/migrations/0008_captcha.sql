-- 0008_captcha: proof-of-work answers already used (docs/rules/security.md#proof-of-work-check).
-- A solved challenge is accepted once: its nonce's sha256 is kept here until the challenge
-- would have expired anyway, so replaying one answer for many requests gets nothing.
create table captcha_solution_used (
  nonce_sha256 text primary key check (nonce_sha256 ~ '^[0-9a-f]{64}$'),
  expires_at   timestamptz not null
);
create index captcha_solution_used_expires on captcha_solution_used (expires_at);
