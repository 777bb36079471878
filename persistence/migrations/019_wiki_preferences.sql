-- Workspace wiki settings (one row per workspace that changed a default;
-- written only by its WikiWorkspaceSettings actor) and their change history.
CREATE TABLE wiki_settings (
  workspace_id text PRIMARY KEY,
  allow_public_wikis boolean NOT NULL DEFAULT true,
  allow_exports boolean NOT NULL DEFAULT true,
  allow_imports boolean NOT NULL DEFAULT true,
  track_page_views boolean NOT NULL DEFAULT true,
  default_home_space_id text,
  site_name text,
  logo_url text,
  accent_color text,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE wiki_settings_changes (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  changed_by text NOT NULL,
  changes jsonb NOT NULL,                -- {field: {from, to}}
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wiki_settings_changes_workspace ON wiki_settings_changes (workspace_id, changed_at DESC);

-- Per-user wiki state, written only by the user's WikiMember actor.
CREATE TABLE wiki_user_settings (
  user_id text PRIMARY KEY,
  theme text NOT NULL DEFAULT 'system',
  full_width boolean NOT NULL DEFAULT false,
  spellcheck boolean NOT NULL DEFAULT true,
  default_edit_mode text NOT NULL DEFAULT 'edit',
  save_search_history boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE wiki_favorites (
  user_id text NOT NULL,
  page_id text NOT NULL REFERENCES wiki_pages (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, page_id)
);
CREATE INDEX wiki_favorites_user ON wiki_favorites (user_id, workspace_id, created_at DESC);

CREATE TABLE wiki_recent_searches (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  workspace_id text NOT NULL,
  query text NOT NULL,
  filters jsonb NOT NULL DEFAULT '{}'::jsonb,
  result_count integer NOT NULL,
  searched_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX wiki_recent_searches_query ON wiki_recent_searches (user_id, workspace_id, lower(query));
CREATE INDEX wiki_recent_searches_user ON wiki_recent_searches (user_id, workspace_id, searched_at DESC);
