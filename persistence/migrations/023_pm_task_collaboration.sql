-- Comments (threaded, with mentions and reactions), attachments (bytes in the
-- BlobStore), time tracking and task relationships.
CREATE TABLE pm_comments (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  task_id text NOT NULL REFERENCES pm_tasks (id),
  parent_comment_id text REFERENCES pm_comments (id),
  author_id text NOT NULL,
  text text NOT NULL,
  mentions jsonb NOT NULL DEFAULT '[]'::jsonb,        -- user ids
  assignee_id text,
  resolved_at timestamptz,
  resolved_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX pm_comments_task ON pm_comments (task_id, created_at, id);
CREATE INDEX pm_comments_parent ON pm_comments (parent_comment_id, created_at);
CREATE INDEX pm_comments_assignee ON pm_comments (assignee_id);

CREATE TABLE pm_comment_reactions (
  comment_id text NOT NULL REFERENCES pm_comments (id),
  user_id text NOT NULL,
  emoji text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (comment_id, user_id, emoji)
);

CREATE TABLE pm_attachments (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  task_id text NOT NULL REFERENCES pm_tasks (id),
  blob_key text NOT NULL,
  filename text NOT NULL,
  content_type text NOT NULL,
  size bigint NOT NULL,
  uploaded_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_attachments_task ON pm_attachments (task_id, created_at);

CREATE TABLE pm_time_entries (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  task_id text NOT NULL REFERENCES pm_tasks (id),
  user_id text NOT NULL,
  started_at timestamptz NOT NULL,
  ended_at timestamptz,                               -- null while the timer runs
  note text NOT NULL DEFAULT '',
  billable boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_time_entries_task ON pm_time_entries (task_id, started_at);
CREATE INDEX pm_time_entries_user ON pm_time_entries (workspace_id, user_id, started_at);
-- At most one running timer per user.
CREATE UNIQUE INDEX pm_time_entries_running ON pm_time_entries (user_id) WHERE ended_at IS NULL;

-- blocks (source blocks target), relates_to, duplicates (source duplicates target).
CREATE TABLE pm_relationships (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  source_task_id text NOT NULL REFERENCES pm_tasks (id),
  target_task_id text NOT NULL REFERENCES pm_tasks (id),
  type text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX pm_relationships_pair ON pm_relationships (source_task_id, target_task_id, type);
CREATE INDEX pm_relationships_target ON pm_relationships (target_task_id);
CREATE INDEX pm_relationships_workspace ON pm_relationships (workspace_id, type);
