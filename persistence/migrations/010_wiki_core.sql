-- Wiki core: spaces and the page tree. Page content lives in the collaborative
-- document (collab_* tables, keyed by page id); `content_text` is the plain
-- text projection kept for search and listings.
CREATE TABLE wiki_spaces (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  icon text,
  visibility text NOT NULL DEFAULT 'workspace',      -- workspace | restricted
  is_public boolean NOT NULL DEFAULT false,          -- published as a public wiki
  home_page_id text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz
);
CREATE UNIQUE INDEX wiki_spaces_key ON wiki_spaces (workspace_id, lower(key));
CREATE INDEX wiki_spaces_workspace ON wiki_spaces (workspace_id);

CREATE TABLE wiki_pages (
  id text PRIMARY KEY,
  space_id text NOT NULL REFERENCES wiki_spaces (id),
  workspace_id text NOT NULL,
  parent_id text REFERENCES wiki_pages (id),
  title text NOT NULL,
  slug text NOT NULL,
  icon text,
  cover_image text,
  position double precision NOT NULL DEFAULT 0,
  content_text text NOT NULL DEFAULT '',
  is_published boolean NOT NULL DEFAULT false,
  created_by text NOT NULL,
  updated_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz
);
CREATE INDEX wiki_pages_space_parent ON wiki_pages (space_id, parent_id, position);
CREATE UNIQUE INDEX wiki_pages_slug ON wiki_pages (space_id, slug);
CREATE INDEX wiki_pages_workspace ON wiki_pages (workspace_id, updated_at DESC);
