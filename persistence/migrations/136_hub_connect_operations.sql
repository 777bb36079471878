-- Hub demo workspaces, connection tests, beta waitlist, product feedback and
-- workspace migrations (issue 15, part C).

CREATE TABLE hub_demo_workspaces (
  id uuid PRIMARY KEY,
  owner_id uuid NOT NULL,
  workspace_id uuid NOT NULL,
  name text NOT NULL,
  -- 'user': made by a signed-in user; 'demo_user': with a throwaway account (Demo User Resource)
  origin text NOT NULL,
  contents jsonb NOT NULL,
  resets integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  reset_at timestamptz,
  expires_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX hub_demo_workspaces_owner ON hub_demo_workspaces (owner_id, created_at) WHERE deleted_at IS NULL;
CREATE INDEX hub_demo_workspaces_created ON hub_demo_workspaces (origin, created_at);

CREATE TABLE hub_test_runs (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  kind text NOT NULL,
  target text NOT NULL,
  ok boolean NOT NULL,
  http_status integer,
  latency_ms integer NOT NULL,
  error text,
  detail jsonb NOT NULL,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hub_test_runs_workspace ON hub_test_runs (workspace_id, created_at DESC);

CREATE TABLE hub_beta_waitlist (
  position bigserial PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name text,
  company text,
  use_case text,
  joined_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE hub_product_feedback (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  email text NOT NULL,
  category text NOT NULL,
  message text NOT NULL,
  rating integer,
  page_url text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE hub_workspace_migrations (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  target_origin text NOT NULL,
  target_workspace_id uuid NOT NULL,
  status text NOT NULL,
  steps jsonb NOT NULL,
  error text,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX hub_workspace_migrations_workspace ON hub_workspace_migrations (workspace_id, created_at DESC);
