-- OAuth connections: the refresh token (AES-256-GCM ciphertext like the access token) and when the access token expires.
ALTER TABLE hub_connections ADD COLUMN refresh_ciphertext text NOT NULL DEFAULT '';
ALTER TABLE hub_connections ADD COLUMN token_expires_at timestamptz;
ALTER TABLE hub_connections ADD COLUMN oauth_scope text;

-- A pending OAuth authorization: single-use, bound to the user's session, expiring; the PKCE verifier stays here.
CREATE TABLE hub_oauth_states (
  state text PRIMARY KEY,
  workspace_id text NOT NULL,
  user_id text NOT NULL,
  session_id text NOT NULL,
  vendor text NOT NULL,
  name text NOT NULL,
  base_url text NOT NULL,
  code_verifier text NOT NULL,
  redirect_uri text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

-- Where a connection's items go (project, board, table, space, channel) and how hub fields map to vendor fields.
CREATE TABLE hub_vendor_mappings (
  connection_id text PRIMARY KEY REFERENCES hub_connections (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  destination text NOT NULL,
  fields jsonb NOT NULL DEFAULT '{}',
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Items pushed through a connection: idempotent per (connection, local key); pulled state kept beside.
CREATE TABLE hub_vendor_items (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  connection_id text NOT NULL REFERENCES hub_connections (id) ON DELETE CASCADE,
  kind text NOT NULL,
  local_key text NOT NULL,
  title text NOT NULL,
  destination text NOT NULL,
  external_id text NOT NULL,
  url text NOT NULL,
  remote_status text,
  remote_assignee text,
  pushed_by text NOT NULL,
  pushed_at timestamptz NOT NULL DEFAULT now(),
  pulled_at timestamptz,
  UNIQUE (connection_id, local_key)
);
CREATE INDEX hub_vendor_items_workspace ON hub_vendor_items (workspace_id, connection_id, pushed_at);

-- Integration broker tenants mapped to workspaces; the signing secret is ciphertext (shown once on creation).
CREATE TABLE hub_broker_tenants (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  tenant_id text NOT NULL UNIQUE,
  name text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  secret_ciphertext text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hub_broker_tenants_workspace ON hub_broker_tenants (workspace_id, created_at);

-- The broker's integrations (an app installed for a tenant), each optionally bound to a hub connection.
CREATE TABLE hub_broker_integrations (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  tenant_ref text NOT NULL REFERENCES hub_broker_tenants (id) ON DELETE CASCADE,
  external_id text NOT NULL,
  app text NOT NULL,
  name text NOT NULL,
  connection_id text,
  enabled boolean NOT NULL DEFAULT true,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_ref, external_id)
);

-- Broker events, stored before they are acknowledged; the event id makes a replay a no-op.
CREATE TABLE hub_broker_inbox (
  event_id text NOT NULL,
  workspace_id text NOT NULL,
  tenant_ref text NOT NULL REFERENCES hub_broker_tenants (id) ON DELETE CASCADE,
  type text NOT NULL,
  payload jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  processed_at timestamptz,
  claimed_until timestamptz,
  runs integer NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_ref, event_id)
);
CREATE INDEX hub_broker_inbox_pending ON hub_broker_inbox (received_at) WHERE processed_at IS NULL;

-- Named workflows (trigger → steps over the adapters) and their run history.
CREATE TABLE hub_workflows (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  name text NOT NULL,
  trigger jsonb NOT NULL,
  steps jsonb NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, name)
);

CREATE TABLE hub_workflow_runs (
  id text PRIMARY KEY,
  workflow_id text NOT NULL REFERENCES hub_workflows (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  trigger_event text,
  status text NOT NULL,
  steps jsonb NOT NULL DEFAULT '[]',
  started_by text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX hub_workflow_runs_workflow ON hub_workflow_runs (workflow_id, started_at DESC);
