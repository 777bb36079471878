-- The pm change log: every change of project management, appended in the
-- transaction that makes it (actors/pm/ChangeLogLive.ts). It is the activity
-- log and the replay source of the live streams; it is bounded per workspace
-- (the oldest events are pruned), so a client too far behind is told to resync.

-- Per-workspace sequence: one counter row per workspace, bumped in the same
-- transaction as the appended events, so seq is increasing and gap-free per
-- workspace and commit order equals seq order (the row lock serializes writers).
CREATE TABLE pm_event_counters (
  workspace_id text PRIMARY KEY,
  last_seq bigint NOT NULL
);

CREATE TABLE pm_events (
  workspace_id text NOT NULL,
  seq bigint NOT NULL,
  type text NOT NULL,
  scope text NOT NULL,                                -- workspace | space | list | task
  entity_id text NOT NULL,
  space_id text,
  list_id text,
  task_id text,
  -- the event happened in a private space (seen by its members and workspace admins only)
  private_space boolean NOT NULL DEFAULT false,
  data jsonb NOT NULL,
  actor_id text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, seq)
);
CREATE INDEX pm_events_at ON pm_events (workspace_id, at);
CREATE INDEX pm_events_space ON pm_events (space_id, seq) WHERE space_id IS NOT NULL;
CREATE INDEX pm_events_list ON pm_events (list_id, seq) WHERE list_id IS NOT NULL;
CREATE INDEX pm_events_task ON pm_events (task_id, seq) WHERE task_id IS NOT NULL;
CREATE INDEX pm_events_actor ON pm_events (workspace_id, actor_id, seq);
CREATE INDEX pm_events_type ON pm_events (workspace_id, type, seq);

-- Notifications written from the changes' `notify` (same transaction).
CREATE TABLE pm_notifications (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  workspace_id text NOT NULL,
  reason text NOT NULL,                               -- assigned | mentioned | status_changed | commented | watching | due_soon
  title text NOT NULL,
  event_seq bigint NOT NULL,
  event_type text NOT NULL,
  scope text NOT NULL,
  entity_id text NOT NULL,
  actor_id text NOT NULL,
  created_at timestamptz NOT NULL,
  read_at timestamptz
);
CREATE INDEX pm_notifications_user ON pm_notifications (user_id, created_at DESC, id);
CREATE INDEX pm_notifications_unread ON pm_notifications (user_id, workspace_id) WHERE read_at IS NULL;
CREATE INDEX pm_notifications_event ON pm_notifications (workspace_id, event_seq);

-- Single-use WebSocket tickets (only the hash is kept), shared by every node
-- so a ticket issued on one node opens a socket on another.
CREATE TABLE pm_ws_tickets (
  ticket_hash text PRIMARY KEY,
  user_id text NOT NULL,
  workspace_id text NOT NULL,
  api_key_id text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_ws_tickets_expiry ON pm_ws_tickets (expires_at);
