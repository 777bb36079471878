-- Public wikis. A space's public site (written only by its PublicSite actor):
-- `slug` is the first segment of its public URL path, unique across all
-- workspaces; `enabled` mirrors wiki_spaces.is_public.
CREATE TABLE wiki_public_sites (
  space_id text PRIMARY KEY REFERENCES wiki_spaces (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  slug text NOT NULL,
  enabled boolean NOT NULL DEFAULT false,
  title text,
  description text,
  logo_url text,
  accent_color text,
  footer_text text,
  allow_search boolean NOT NULL DEFAULT true,
  allow_indexing boolean NOT NULL DEFAULT true,
  show_authors boolean NOT NULL DEFAULT false,
  show_last_updated boolean NOT NULL DEFAULT true,
  enabled_at timestamptz,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX wiki_public_sites_slug ON wiki_public_sites (lower(slug));
CREATE INDEX wiki_public_sites_workspace ON wiki_public_sites (workspace_id);

-- Pages shared publicly one by one (also in spaces without a public site);
-- with include_subpages their whole subtree is shared. wiki_pages.is_published
-- mirrors "has a share row".
CREATE TABLE wiki_public_shares (
  page_id text PRIMARY KEY REFERENCES wiki_pages (id) ON DELETE CASCADE,
  space_id text NOT NULL,
  workspace_id text NOT NULL,
  include_subpages boolean NOT NULL DEFAULT false,
  shared_by text NOT NULL,
  shared_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wiki_public_shares_space ON wiki_public_shares (space_id);

-- What visitors search for on a public wiki (analytics for space admins).
CREATE TABLE wiki_public_searches (
  id text PRIMARY KEY,
  space_id text NOT NULL,
  query text NOT NULL,
  result_count integer NOT NULL,
  searched_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wiki_public_searches_space ON wiki_public_searches (space_id, searched_at);
