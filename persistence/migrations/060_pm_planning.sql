-- Planning: sprint groups (a series of sprints of a space, e.g. one team's
-- cadence) and sprints with the tasks planned into them. Membership rows are
-- never rewritten on removal (removed_at is set instead), so the burndown of
-- any day can be replayed from them and the task status history.
CREATE TABLE pm_sprint_groups (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  space_id text NOT NULL REFERENCES pm_spaces (id),
  team_id text,                                       -- the team whose cadence this is (optional)
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  default_length_days integer NOT NULL,
  auto_create_next boolean NOT NULL DEFAULT true,     -- completing the last planned sprint creates the next one
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX pm_sprint_groups_name ON pm_sprint_groups (space_id, lower(name));
CREATE INDEX pm_sprint_groups_workspace ON pm_sprint_groups (workspace_id);

CREATE TABLE pm_sprints (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  space_id text NOT NULL REFERENCES pm_spaces (id),
  group_id text REFERENCES pm_sprint_groups (id),
  name text NOT NULL,
  goal text NOT NULL DEFAULT '',
  status text NOT NULL,                               -- planned | active | completed
  start_date timestamptz NOT NULL,
  end_date timestamptz NOT NULL,
  started_at timestamptz,
  started_by text,
  committed_tasks integer,                            -- scope when the sprint started
  committed_minutes integer,
  completed_at timestamptz,
  completed_by text,
  summary jsonb,                                      -- the completion report
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_sprints_space ON pm_sprints (space_id, start_date);
CREATE INDEX pm_sprints_group ON pm_sprints (group_id, start_date);
CREATE INDEX pm_sprints_workspace ON pm_sprints (workspace_id, status);

CREATE TABLE pm_sprint_tasks (
  id text PRIMARY KEY,
  sprint_id text NOT NULL REFERENCES pm_sprints (id) ON DELETE CASCADE,
  task_id text NOT NULL REFERENCES pm_tasks (id),
  added_at timestamptz NOT NULL DEFAULT now(),
  added_by text NOT NULL,
  removed_at timestamptz,
  removed_by text,
  outcome text,                                       -- set on completion: completed | rolled_over | backlog
  carried_from text                                   -- the sprint it rolled over from
);
CREATE UNIQUE INDEX pm_sprint_tasks_current ON pm_sprint_tasks (sprint_id, task_id) WHERE removed_at IS NULL;
CREATE INDEX pm_sprint_tasks_task ON pm_sprint_tasks (task_id);

-- Views: a saved way of showing tasks (list, board, calendar, table …) at a
-- workspace, space, folder or list, with its column order, grouping, sorting
-- and filters. Private views are seen by their creator only.
CREATE TABLE pm_views (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  short_id text NOT NULL,
  scope_type text NOT NULL,                           -- workspace | space | folder | list
  scope_id text NOT NULL,
  space_id text,                                      -- the space it lives in (null at workspace level)
  name text NOT NULL,
  type text NOT NULL,
  columns jsonb NOT NULL DEFAULT '[]'::jsonb,         -- [{field, width}] in display order
  group_by jsonb,                                     -- {field, direction, collapsed, showEmpty} or null
  sort_by jsonb NOT NULL DEFAULT '[]'::jsonb,         -- [{field, direction}]
  filters jsonb NOT NULL DEFAULT '{}'::jsonb,         -- task criteria
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  is_private boolean NOT NULL DEFAULT false,
  position double precision NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_views_scope ON pm_views (scope_type, scope_id, position);
CREATE INDEX pm_views_workspace ON pm_views (workspace_id);
CREATE UNIQUE INDEX pm_views_short_id ON pm_views (workspace_id, short_id);

-- Saved filters of a list: named task criteria, private to their creator or shared with the list.
CREATE TABLE pm_saved_filters (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  list_id text NOT NULL REFERENCES pm_lists (id),
  name text NOT NULL,
  criteria jsonb NOT NULL,
  is_shared boolean NOT NULL DEFAULT false,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_saved_filters_list ON pm_saved_filters (list_id, created_at);

-- Dashboards: widgets computing live aggregates over a workspace, space, folder or list.
CREATE TABLE pm_dashboards (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  scope_type text NOT NULL,                           -- workspace | space | folder | list
  scope_id text NOT NULL,
  space_id text,
  is_private boolean NOT NULL DEFAULT false,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_dashboards_workspace ON pm_dashboards (workspace_id, lower(name));

CREATE TABLE pm_dashboard_widgets (
  id text PRIMARY KEY,
  dashboard_id text NOT NULL REFERENCES pm_dashboards (id) ON DELETE CASCADE,
  type text NOT NULL,
  title text NOT NULL,
  config jsonb NOT NULL DEFAULT '{}'::jsonb,
  position double precision NOT NULL DEFAULT 0,
  width integer NOT NULL DEFAULT 6,                   -- grid columns (of 12)
  height integer NOT NULL DEFAULT 4,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_dashboard_widgets_dashboard ON pm_dashboard_widgets (dashboard_id, position);

-- Votes on tasks (one per user and task): what the team wants most.
CREATE TABLE pm_task_votes (
  task_id text NOT NULL REFERENCES pm_tasks (id),
  user_id text NOT NULL,
  workspace_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (task_id, user_id)
);
CREATE INDEX pm_task_votes_workspace ON pm_task_votes (workspace_id, task_id);
