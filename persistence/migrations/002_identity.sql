-- Identity lives in actor state (accounts, sessions, workspaces, API keys);
-- these indexes serve the lookups that cross actors.
CREATE INDEX actor_state_account_user ON actor_state ((state->>'userId')) WHERE kind = 'account';
CREATE INDEX actor_state_session_user ON actor_state ((state->>'userId')) WHERE kind = 'session';
CREATE INDEX actor_state_workspace_members ON actor_state USING gin ((state->'members') jsonb_path_ops) WHERE kind = 'workspace';
CREATE INDEX actor_state_apikey_hash ON actor_state ((state->>'hash')) WHERE kind = 'apiKey';
CREATE INDEX actor_state_apikey_workspace ON actor_state ((state->>'workspaceId')) WHERE kind = 'apiKey';

-- Cluster-wide secrets generated once (the JWT signing key when JWT_SECRET is not set).
CREATE TABLE system_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
