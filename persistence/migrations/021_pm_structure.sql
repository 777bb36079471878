-- Work hierarchy, part 2: lifecycle columns, per-level settings, private-space
-- members, watchers, and the properties each level may define (statuses and
-- custom field definitions), inherited downward: a list without its own
-- statuses uses its folder's, then its space's.
ALTER TABLE pm_spaces ADD COLUMN deleted_at timestamptz;
ALTER TABLE pm_spaces ADD COLUMN features jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE pm_spaces ADD COLUMN task_defaults jsonb NOT NULL DEFAULT '{}'::jsonb;

ALTER TABLE pm_folders ADD COLUMN deleted_at timestamptz;
ALTER TABLE pm_folders ADD COLUMN description text NOT NULL DEFAULT '';
ALTER TABLE pm_folders ADD COLUMN color text;
CREATE UNIQUE INDEX pm_folders_short_id ON pm_folders (workspace_id, short_id);

ALTER TABLE pm_lists ADD COLUMN deleted_at timestamptz;
ALTER TABLE pm_lists ADD COLUMN color text;
ALTER TABLE pm_lists ADD COLUMN priority text;
ALTER TABLE pm_lists ADD COLUMN start_date timestamptz;
ALTER TABLE pm_lists ADD COLUMN due_date timestamptz;
ALTER TABLE pm_lists ADD COLUMN owner_id text;
ALTER TABLE pm_lists ADD COLUMN task_defaults jsonb NOT NULL DEFAULT '{}'::jsonb;
CREATE UNIQUE INDEX pm_lists_short_id ON pm_lists (workspace_id, short_id);
CREATE INDEX pm_lists_folder ON pm_lists (folder_id, position);

-- Members of a private space (workspace admins see every space).
CREATE TABLE pm_space_members (
  space_id text NOT NULL REFERENCES pm_spaces (id),
  user_id text NOT NULL,
  added_by text NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (space_id, user_id)
);

-- Who follows a space, folder, list or task (notified of changes inside it).
CREATE TABLE pm_watchers (
  scope_type text NOT NULL,                           -- space | folder | list | task
  scope_id text NOT NULL,
  user_id text NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope_type, scope_id, user_id)
);
CREATE INDEX pm_watchers_user ON pm_watchers (user_id);

-- Workflow statuses of a space, folder or list; a task's status is one of its list's effective statuses (by name).
CREATE TABLE pm_statuses (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  scope_type text NOT NULL,                           -- space | folder | list
  scope_id text NOT NULL,
  name text NOT NULL,
  type text NOT NULL,                                 -- open | active | done | closed
  color text NOT NULL,
  position double precision NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX pm_statuses_name ON pm_statuses (scope_type, scope_id, lower(name));
CREATE INDEX pm_statuses_scope ON pm_statuses (scope_id, position);

-- Custom field definitions of a space, folder or list; a list's tasks may carry values of every field defined on it or above it.
CREATE TABLE pm_custom_fields (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  scope_type text NOT NULL,                           -- space | folder | list
  scope_id text NOT NULL,
  name text NOT NULL,
  type text NOT NULL,                                 -- text | number | date | dropdown | labels | checkbox | email | url | currency | phone | rating | users
  description text NOT NULL DEFAULT '',
  required boolean NOT NULL DEFAULT false,
  config jsonb NOT NULL DEFAULT '{}'::jsonb,          -- options, currency, precision, max …
  position double precision NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX pm_custom_fields_name ON pm_custom_fields (scope_type, scope_id, lower(name));
CREATE INDEX pm_custom_fields_scope ON pm_custom_fields (scope_id, position);
CREATE INDEX pm_custom_fields_workspace ON pm_custom_fields (workspace_id);
