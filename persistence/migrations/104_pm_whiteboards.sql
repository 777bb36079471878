-- Whiteboards: the board's content is a live Yjs document (collab_documents,
-- name "whiteboard:<id>"); these rows are its metadata, comments and templates.
CREATE TABLE pm_whiteboards (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  space_id text,
  name text NOT NULL,
  template_id text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX pm_whiteboards_workspace ON pm_whiteboards (workspace_id);

CREATE TABLE pm_whiteboard_comments (
  id text PRIMARY KEY,
  whiteboard_id text NOT NULL REFERENCES pm_whiteboards (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  element_id text NOT NULL,                           -- pinned to the element, not to coordinates
  offset_x double precision NOT NULL DEFAULT 0,       -- relative to the element, so moves carry the pin
  offset_y double precision NOT NULL DEFAULT 0,
  parent_comment_id text,
  text text NOT NULL,
  resolved boolean NOT NULL DEFAULT false,
  author_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_whiteboard_comments_board ON pm_whiteboard_comments (whiteboard_id, created_at);

CREATE TABLE pm_whiteboard_templates (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  snapshot bytea NOT NULL,                            -- Yjs state of the saved board
  element_count integer NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_whiteboard_templates_workspace ON pm_whiteboard_templates (workspace_id, created_at DESC);
