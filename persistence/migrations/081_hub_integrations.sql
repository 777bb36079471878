-- Connections of a workspace to vendor systems; tokens are AES-256-GCM ciphertext, never returned.
CREATE TABLE hub_connections (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  vendor text NOT NULL,
  name text NOT NULL,
  base_url text NOT NULL,
  token_ciphertext text NOT NULL,
  settings jsonb NOT NULL DEFAULT '{}',
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX hub_connections_workspace ON hub_connections (workspace_id, vendor);

-- Action items sent to a target: idempotent per (recording, action item, target).
CREATE TABLE hub_sent_action_items (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  recording_id bigint NOT NULL REFERENCES hub_recordings (id) ON DELETE CASCADE,
  action_item_id text NOT NULL,
  target text NOT NULL,
  destination text,
  text text NOT NULL,
  external_id text NOT NULL,
  url text NOT NULL,
  remote_status text,
  remote_assignee text,
  sent_by text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  synced_at timestamptz,
  UNIQUE (recording_id, action_item_id, target)
);
CREATE INDEX hub_sent_action_items_workspace ON hub_sent_action_items (workspace_id, sent_at);

-- Changes seen on sent tasks (status or assignee changed in the target) since they were sent.
CREATE TABLE hub_task_changes (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  sent_id text NOT NULL REFERENCES hub_sent_action_items (id) ON DELETE CASCADE,
  field text NOT NULL,
  old_value text,
  new_value text,
  detected_at timestamptz NOT NULL DEFAULT now(),
  acknowledged_at timestamptz,
  applied_at timestamptz
);
CREATE INDEX hub_task_changes_workspace ON hub_task_changes (workspace_id, detected_at);
