-- pm organization: per-user favorites and workspace order, public share links
-- of tasks, and the pm side of workspace administration (settings, logo,
-- invitations, the invite link, deactivated members). Membership itself
-- stays in the identity `workspace` actor; its history is in pm_events.

-- A user's starred spaces, folders, lists and tasks, per workspace.
CREATE TABLE pm_favorites (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  workspace_id text NOT NULL,
  entity_type text NOT NULL,                          -- space | folder | list | task
  entity_id text NOT NULL,
  position double precision NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX pm_favorites_entity ON pm_favorites (user_id, entity_type, entity_id);
CREATE INDEX pm_favorites_user ON pm_favorites (user_id, workspace_id, position);

-- A user's order of their workspaces in the switcher.
CREATE TABLE pm_workspace_order (
  user_id text NOT NULL,
  workspace_id text NOT NULL,
  position integer NOT NULL,
  PRIMARY KEY (user_id, workspace_id)
);

-- Public read-only links to one task; only the token's hash is kept.
CREATE TABLE pm_share_links (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  task_id text NOT NULL REFERENCES pm_tasks (id),
  token_hash text NOT NULL,
  token_prefix text NOT NULL,
  include_subtasks boolean NOT NULL DEFAULT false,
  include_comments boolean NOT NULL DEFAULT false,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz,
  revoked_by text,
  view_count integer NOT NULL DEFAULT 0,
  last_viewed_at timestamptz
);
CREATE UNIQUE INDEX pm_share_links_token ON pm_share_links (token_hash);
CREATE INDEX pm_share_links_task ON pm_share_links (task_id, created_at);
CREATE INDEX pm_share_links_workspace ON pm_share_links (workspace_id, created_at);

-- Workspace settings of project management (one row per workspace; absent: defaults).
CREATE TABLE pm_workspace_settings (
  workspace_id text PRIMARY KEY,
  general jsonb NOT NULL DEFAULT '{}'::jsonb,         -- time zone, week start, formats, description
  features jsonb NOT NULL DEFAULT '{}'::jsonb,        -- features on/off
  default_views jsonb NOT NULL DEFAULT '{}'::jsonb,   -- default view per level
  security jsonb NOT NULL DEFAULT '{}'::jsonb,        -- invitation and sharing policy
  branding jsonb NOT NULL DEFAULT '{}'::jsonb,        -- color, tagline
  logo jsonb,                                         -- {key, contentType, size, updatedAt}; bytes in the BlobStore
  seat_limit integer,                                 -- null: unlimited
  updated_by text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Invitations by e-mail; only the accept token's hash is kept.
CREATE TABLE pm_workspace_invitations (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  email text NOT NULL,
  role text NOT NULL,                                 -- admin | member | viewer
  guest boolean NOT NULL DEFAULT false,
  guest_expires_at timestamptz,
  message text NOT NULL DEFAULT '',
  token_hash text NOT NULL,
  status text NOT NULL,                               -- pending | accepted | declined | revoked (expired: pending past expires_at)
  invited_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  resend_count integer NOT NULL DEFAULT 0,
  last_sent_at timestamptz NOT NULL DEFAULT now(),
  responded_at timestamptz,
  responded_by text
);
CREATE UNIQUE INDEX pm_workspace_invitations_token ON pm_workspace_invitations (token_hash);
CREATE INDEX pm_workspace_invitations_workspace ON pm_workspace_invitations (workspace_id, created_at);
CREATE INDEX pm_workspace_invitations_email ON pm_workspace_invitations (email, status);

-- The workspace's shareable invite link (one at a time; only the code's hash is kept).
CREATE TABLE pm_workspace_invite_links (
  workspace_id text PRIMARY KEY,
  code_hash text NOT NULL,
  code_prefix text NOT NULL,
  role text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  max_uses integer,
  uses integer NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX pm_workspace_invite_links_code ON pm_workspace_invite_links (code_hash);

-- Deactivated members: out of the workspace, their role kept for reactivation.
CREATE TABLE pm_workspace_deactivations (
  workspace_id text NOT NULL,
  user_id text NOT NULL,
  role text NOT NULL,
  deactivated_by text NOT NULL,
  deactivated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, user_id)
);
