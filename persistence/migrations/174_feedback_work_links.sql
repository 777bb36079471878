-- Feature requests and bug reports linked to the pm tasks that deliver them, and how a
-- board lets that work move its requests (issue 24). The board owns these rows (its
-- Board actor is their single writer); pm reads them through actors/feedback/WorkLinkReads.ts.
CREATE TABLE feedback_work_links (
  item_id text NOT NULL,                         -- a feature request or bug report of the board
  task_id text NOT NULL,                         -- a pm task of the same workspace (pm's row: no foreign key)
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  item_kind text NOT NULL CHECK (item_kind IN ('request', 'bug')),
  linked_by text NOT NULL,
  linked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (item_id, task_id)
);
CREATE INDEX feedback_work_links_task ON feedback_work_links (task_id);

-- A board's declaration: the status its requests take when their first linked task starts,
-- and when all of them are done (null: that step moves nothing). No row: work moves nothing.
CREATE TABLE feedback_work_progress (
  board_id text PRIMARY KEY REFERENCES feedback_boards (id) ON DELETE CASCADE,
  started_status_id text,
  done_status_id text,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- How far the work-progress worker has read each workspace's pm event log (one node at a
-- time holds a workspace's lease), created with the workspace's first link.
CREATE TABLE feedback_work_cursors (
  workspace_id text PRIMARY KEY,
  last_seq bigint NOT NULL,
  lease_owner text,
  lease_until timestamptz
);
