-- Workspace webhooks on pm events. An outbox row per (endpoint, event) is
-- written by the change log in the same transaction as the change; the
-- delivery worker drains it. Rows whose retries are exhausted stay here with
-- status 'dead': that is the dead-letter queue.
CREATE TABLE pm_webhook_endpoints (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  event_types text[] NOT NULL DEFAULT '{}',          -- empty: every event type
  space_id text,                                      -- only events of this space (optional)
  secret text NOT NULL,                               -- whsec_… (Standard Webhooks)
  status text NOT NULL DEFAULT 'active',              -- active | paused | disabled (410 from the receiver)
  disabled_reason text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_webhook_endpoints_workspace ON pm_webhook_endpoints (workspace_id);

CREATE TABLE pm_webhook_outbox (
  id text PRIMARY KEY,                                -- the webhook-id header (stable across retries)
  endpoint_id text NOT NULL REFERENCES pm_webhook_endpoints (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  event_seq bigint NOT NULL,                          -- the change's seq (0 for test pings)
  event_type text NOT NULL,
  entity_id text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending',             -- pending | delivered | dead
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,                            -- a worker is delivering it until then
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  dead_at timestamptz
);
CREATE INDEX pm_webhook_outbox_due ON pm_webhook_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX pm_webhook_outbox_order ON pm_webhook_outbox (endpoint_id, entity_id, event_seq) WHERE status = 'pending';
CREATE INDEX pm_webhook_outbox_endpoint ON pm_webhook_outbox (endpoint_id, created_at DESC);
CREATE INDEX pm_webhook_outbox_dead ON pm_webhook_outbox (dead_at DESC) WHERE status = 'dead';
