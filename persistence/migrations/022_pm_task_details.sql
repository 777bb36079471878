-- Task details: lifecycle, recurrence, custom field values, space tags,
-- checklists, extra lists a task appears in, status history.
ALTER TABLE pm_tasks ADD COLUMN deleted_at timestamptz;
ALTER TABLE pm_tasks ADD COLUMN deleted_by text;
ALTER TABLE pm_tasks ADD COLUMN recurrence jsonb;
CREATE INDEX pm_tasks_parent ON pm_tasks (parent_task_id);
CREATE INDEX pm_tasks_space ON pm_tasks (space_id);

CREATE TABLE pm_task_custom_values (
  task_id text NOT NULL REFERENCES pm_tasks (id),
  field_id text NOT NULL REFERENCES pm_custom_fields (id),
  value jsonb NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (task_id, field_id)
);
CREATE INDEX pm_task_custom_values_field ON pm_task_custom_values (field_id);

CREATE TABLE pm_tags (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  space_id text NOT NULL REFERENCES pm_spaces (id),
  name text NOT NULL,
  color text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX pm_tags_name ON pm_tags (space_id, lower(name));

CREATE TABLE pm_task_tags (
  task_id text NOT NULL REFERENCES pm_tasks (id),
  tag_id text NOT NULL REFERENCES pm_tags (id),
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (task_id, tag_id)
);
CREATE INDEX pm_task_tags_tag ON pm_task_tags (tag_id);


CREATE TABLE pm_checklists (
  id text PRIMARY KEY,
  task_id text NOT NULL REFERENCES pm_tasks (id),
  name text NOT NULL,
  position double precision NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_checklists_task ON pm_checklists (task_id, position);

CREATE TABLE pm_checklist_items (
  id text PRIMARY KEY,
  checklist_id text NOT NULL REFERENCES pm_checklists (id),
  task_id text NOT NULL REFERENCES pm_tasks (id),
  name text NOT NULL,
  resolved boolean NOT NULL DEFAULT false,
  assignee_id text,
  position double precision NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_checklist_items_checklist ON pm_checklist_items (checklist_id, position);

-- A task lives in one home list and may also appear in other lists.
CREATE TABLE pm_task_list_links (
  task_id text NOT NULL REFERENCES pm_tasks (id),
  list_id text NOT NULL REFERENCES pm_lists (id),
  added_by text NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (task_id, list_id)
);
CREATE INDEX pm_task_list_links_list ON pm_task_list_links (list_id);

CREATE TABLE pm_task_status_history (
  id text PRIMARY KEY,
  task_id text NOT NULL REFERENCES pm_tasks (id),
  status text NOT NULL,
  status_type text NOT NULL,
  entered_at timestamptz NOT NULL DEFAULT now(),
  entered_by text NOT NULL
);
CREATE INDEX pm_task_status_history_task ON pm_task_status_history (task_id, entered_at);

CREATE TABLE pm_task_templates (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  name text NOT NULL,
  template jsonb NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_task_templates_workspace ON pm_task_templates (workspace_id, created_at);
