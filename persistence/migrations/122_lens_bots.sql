-- Lens bots: a team-chat or team-meeting connection (hub_connections) on
-- which Lens answers mentions. The sender's signing secret is encrypted at
-- rest (HubKeys); Lens answers with the permissions of `act_as`.
CREATE TABLE lens_bots (
  connection_id text PRIMARY KEY,
  workspace_id text NOT NULL,
  surface text NOT NULL,
  secret_ciphertext text NOT NULL,
  act_as text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
