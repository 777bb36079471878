-- Page comments: threads (a root and its replies). An inline thread is
-- anchored to a text range by two encoded Yjs relative positions, which keep
-- pointing at the same characters while others edit the page.
CREATE TABLE wiki_comments (
  id text PRIMARY KEY,
  page_id text NOT NULL REFERENCES wiki_pages (id) ON DELETE CASCADE,
  space_id text NOT NULL,
  workspace_id text NOT NULL,
  parent_id text REFERENCES wiki_comments (id) ON DELETE CASCADE,
  author_id text NOT NULL,
  body text NOT NULL,
  anchor_start bytea,
  anchor_end bytea,
  anchor_quote text,
  resolved_at timestamptz,
  resolved_by text,
  edited_at timestamptz,
  deleted_at timestamptz,                            -- a deleted root that still has replies
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wiki_comments_page ON wiki_comments (page_id, created_at);
CREATE INDEX wiki_comments_parent ON wiki_comments (parent_id);
CREATE INDEX wiki_comments_space_open ON wiki_comments (space_id, created_at) WHERE parent_id IS NULL AND resolved_at IS NULL;

CREATE TABLE wiki_comment_mentions (
  comment_id text NOT NULL REFERENCES wiki_comments (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  workspace_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (comment_id, user_id)
);
CREATE INDEX wiki_comment_mentions_user ON wiki_comment_mentions (workspace_id, user_id, created_at DESC);
