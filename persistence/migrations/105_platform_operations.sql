-- Platform operations: the operator/internal audit trail, single-use SSO login
-- states, the push-delivery claims (one node sends each notification), and the
-- lookups across actor state of the SSO, billing and push kinds.

CREATE TABLE platform_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  -- "user:<id>" for a platform admin, "internal:<key name>" for a service, "payment" for the provider
  actor text NOT NULL,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text NOT NULL,
  workspace_id text,
  data jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX platform_audit_at ON platform_audit (at DESC, id DESC);
CREATE INDEX platform_audit_workspace ON platform_audit (workspace_id, at DESC);

-- An OIDC login under way: deleted when its callback arrives (single use) or when it expires.
CREATE TABLE sso_login_states (
  state text PRIMARY KEY,
  workspace_id text NOT NULL,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  -- sha256 of the browser binding cookie set when the login started
  binding_hash text NOT NULL,
  redirect_uri text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sso_login_states_expiry ON sso_login_states (expires_at);

-- A notification pushed (or being pushed) by some node: the first claim sends it.
CREATE TABLE push_delivery_claims (
  notification_id text PRIMARY KEY,
  claimed_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX actor_state_sso_domains ON actor_state USING gin ((state->'domains') jsonb_path_ops) WHERE kind = 'workspaceSso';
CREATE INDEX actor_state_push_endpoint ON actor_state USING gin ((state->'subscriptions') jsonb_path_ops) WHERE kind = 'pushSubscriptions';
