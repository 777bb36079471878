-- Wiki access: space permission entries (a user, or every holder of a
-- workspace role, gets a space role) and page restrictions (who may view or
-- edit a restricted page; restrictions hold for the page's whole subtree).
CREATE TABLE wiki_space_permissions (
  id text PRIMARY KEY,
  space_id text NOT NULL REFERENCES wiki_spaces (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  user_id text,                                      -- exactly one of user_id, workspace_role
  workspace_role text,                               -- admin | member | viewer
  role text NOT NULL,                                -- admin | editor | viewer
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((user_id IS NULL) <> (workspace_role IS NULL))
);
CREATE UNIQUE INDEX wiki_space_permissions_user ON wiki_space_permissions (space_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX wiki_space_permissions_role ON wiki_space_permissions (space_id, workspace_role) WHERE workspace_role IS NOT NULL;

-- open: the space's rules apply; edit: everyone in the space may view, only
-- listed entries edit; view: only listed entries view (or edit).
ALTER TABLE wiki_pages ADD COLUMN restriction text NOT NULL DEFAULT 'open';

CREATE TABLE wiki_page_permissions (
  id text PRIMARY KEY,
  page_id text NOT NULL REFERENCES wiki_pages (id) ON DELETE CASCADE,
  space_id text NOT NULL,
  workspace_id text NOT NULL,
  user_id text,
  workspace_role text,
  access text NOT NULL,                              -- view | edit
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((user_id IS NULL) <> (workspace_role IS NULL))
);
CREATE UNIQUE INDEX wiki_page_permissions_user ON wiki_page_permissions (page_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX wiki_page_permissions_role ON wiki_page_permissions (page_id, workspace_role) WHERE workspace_role IS NOT NULL;
