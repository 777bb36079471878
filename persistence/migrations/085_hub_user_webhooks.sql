-- Outgoing webhooks, shared by every service that sends them: the outbox of
-- deliveries (written in the same transaction as the change that causes them,
-- so a committed change is always delivered, across restarts and kill -9) and
-- the log of every attempt. `source` names the kind of endpoint
-- (e.g. 'hub-user'), `endpoint_id` the endpoint in that source's own table.
CREATE TABLE outgoing_webhook_deliveries (
  id text PRIMARY KEY,
  message_id text NOT NULL,                             -- the Standard Webhooks `webhook-id` (msg_…), the same on retries and replays
  source text NOT NULL,
  endpoint_id text NOT NULL,
  owner_id text NOT NULL,                               -- who may read the log (the endpoint's owner)
  event_type text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending',               -- pending | delivered | failed
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,                              -- a worker holds it until then
  last_status_code integer,
  last_error text,
  replay_of text REFERENCES outgoing_webhook_deliveries (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX outgoing_webhook_deliveries_due ON outgoing_webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outgoing_webhook_deliveries_endpoint ON outgoing_webhook_deliveries (source, endpoint_id, created_at DESC);

CREATE TABLE outgoing_webhook_attempts (
  delivery_id text NOT NULL REFERENCES outgoing_webhook_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  status_code integer,
  error text,
  duration_ms integer NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
);

-- Personal webhooks of hub users: fired when a meeting they took part in finishes processing.
CREATE TABLE hub_user_webhooks (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  secret text NOT NULL,
  event_types text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hub_user_webhooks_user ON hub_user_webhooks (user_id, created_at);
