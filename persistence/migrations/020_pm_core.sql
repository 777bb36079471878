-- Project-management core: the work hierarchy workspace → space → folder → list → task.
-- (A list may sit directly in a space: folder_id is null.) Workspaces themselves are
-- identity actors (actor_state kind 'workspace').
CREATE TABLE pm_spaces (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  short_id text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  color text,
  is_private boolean NOT NULL DEFAULT false,
  position double precision NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz
);
CREATE INDEX pm_spaces_workspace ON pm_spaces (workspace_id, position);
CREATE UNIQUE INDEX pm_spaces_short_id ON pm_spaces (workspace_id, short_id);

CREATE TABLE pm_folders (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  space_id text NOT NULL REFERENCES pm_spaces (id),
  short_id text NOT NULL,
  name text NOT NULL,
  position double precision NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz
);
CREATE INDEX pm_folders_space ON pm_folders (space_id, position);

CREATE TABLE pm_lists (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  space_id text NOT NULL REFERENCES pm_spaces (id),
  folder_id text REFERENCES pm_folders (id),
  short_id text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  position double precision NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz
);
CREATE INDEX pm_lists_space ON pm_lists (space_id, folder_id, position);

CREATE TABLE pm_tasks (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  space_id text NOT NULL,
  list_id text NOT NULL REFERENCES pm_lists (id),
  parent_task_id text REFERENCES pm_tasks (id),
  short_id text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  status text NOT NULL,
  priority text,                                      -- urgent | high | normal | low
  start_date timestamptz,
  due_date timestamptz,
  time_estimate_minutes integer,
  position double precision NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  archived_at timestamptz,
  version integer NOT NULL DEFAULT 1
);
CREATE INDEX pm_tasks_list ON pm_tasks (list_id, position);
CREATE INDEX pm_tasks_workspace_created ON pm_tasks (workspace_id, created_at, id);
CREATE UNIQUE INDEX pm_tasks_short_id ON pm_tasks (workspace_id, short_id);

CREATE TABLE pm_task_assignees (
  task_id text NOT NULL REFERENCES pm_tasks (id),
  user_id text NOT NULL,
  assigned_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (task_id, user_id)
);
CREATE INDEX pm_task_assignees_user ON pm_task_assignees (user_id);

-- Per-workspace short-id counters ("T-42", "L-7", …), one row per (workspace, prefix).
CREATE TABLE pm_short_id_counters (
  workspace_id text NOT NULL,
  prefix text NOT NULL,
  next_value integer NOT NULL,
  PRIMARY KEY (workspace_id, prefix)
);
