-- Page versions: the whole Yjs state of the page's document at that moment
-- (what a restore replays), with its ProseMirror JSON and text for reading
-- and diffing without a live document. Numbered per page from 1.
CREATE TABLE wiki_page_versions (
  id text PRIMARY KEY,
  page_id text NOT NULL REFERENCES wiki_pages (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  number integer NOT NULL,
  title text NOT NULL,
  content jsonb NOT NULL,
  content_text text NOT NULL DEFAULT '',
  markdown text NOT NULL DEFAULT '',
  state bytea NOT NULL,
  reason text NOT NULL,                              -- created | saved | edited | restored | autosaved
  label text,
  restored_from text,
  author_id text,
  contributors jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX wiki_page_versions_number ON wiki_page_versions (page_id, number);

-- Links between pages found in page content (for backlinks).
CREATE TABLE wiki_page_links (
  source_page_id text NOT NULL REFERENCES wiki_pages (id) ON DELETE CASCADE,
  target_page_id text NOT NULL,
  workspace_id text NOT NULL,
  PRIMARY KEY (source_page_id, target_page_id)
);
CREATE INDEX wiki_page_links_target ON wiki_page_links (target_page_id);
