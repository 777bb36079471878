-- Page activity for dashboards, the home screen and public-wiki analytics.
-- Append-only facts (no aggregate owns them): one row per page view; edits are
-- folded per page, editor and minute, since typing reports a change about once a second.
CREATE TABLE wiki_page_views (
  id text PRIMARY KEY,
  page_id text NOT NULL,
  space_id text NOT NULL,
  workspace_id text NOT NULL,
  user_id text,                         -- null for anonymous public visitors
  visitor_id text,                      -- anonymous visitor id chosen by the public client, if any
  source text NOT NULL,                 -- app | public
  viewed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wiki_page_views_workspace ON wiki_page_views (workspace_id, viewed_at);
CREATE INDEX wiki_page_views_space ON wiki_page_views (space_id, source, viewed_at);
CREATE INDEX wiki_page_views_user ON wiki_page_views (user_id, viewed_at DESC);
CREATE INDEX wiki_page_views_page ON wiki_page_views (page_id, viewed_at);

CREATE TABLE wiki_page_edits (
  page_id text NOT NULL,
  space_id text NOT NULL,
  workspace_id text NOT NULL,
  user_id text NOT NULL,                -- '' when nobody could be named
  minute timestamptz NOT NULL,
  changes integer NOT NULL DEFAULT 1,
  PRIMARY KEY (page_id, user_id, minute)
);
CREATE INDEX wiki_page_edits_workspace ON wiki_page_edits (workspace_id, minute);
