-- The broker inbox's background processing: each stored event is applied once, by whichever node claims it
-- (claimed_until is the claim's lease); a failed attempt is recorded and retried with backoff until it is
-- processed or, out of attempts, failed. `outcome` keeps each triggered workflow's last run, so a retry
-- runs again only the workflows that failed.
ALTER TABLE hub_broker_inbox ADD COLUMN status text NOT NULL DEFAULT 'pending';
ALTER TABLE hub_broker_inbox ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE hub_broker_inbox ADD COLUMN last_error text;
ALTER TABLE hub_broker_inbox ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE hub_broker_inbox ADD COLUMN outcome jsonb NOT NULL DEFAULT '[]';
UPDATE hub_broker_inbox SET status = 'processed' WHERE processed_at IS NOT NULL;
DROP INDEX hub_broker_inbox_pending;
CREATE INDEX hub_broker_inbox_due ON hub_broker_inbox (next_attempt_at) WHERE status = 'pending';
