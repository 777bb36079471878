-- Idempotency keys of actor writes (runtime/RequestLog.ts): a write that may be re-sent carries a key, and the
-- owner records it in the same fenced transaction as the write, with the encoded reply once known, so a re-sent
-- request is answered from here instead of being applied twice. Rows older than the retention are swept.
CREATE TABLE actor_requests (
  key text PRIMARY KEY,
  kind text NOT NULL,
  actor_id text NOT NULL,
  reply text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX actor_requests_created_at ON actor_requests (created_at);
