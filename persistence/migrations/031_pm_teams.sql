-- Teams: named groups of workspace members (e.g. for assigning and mentioning many at once).
CREATE TABLE pm_teams (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  color text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX pm_teams_name ON pm_teams (workspace_id, lower(name));

CREATE TABLE pm_team_members (
  team_id text NOT NULL REFERENCES pm_teams (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  role text NOT NULL,                                 -- lead | member
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX pm_team_members_user ON pm_team_members (user_id);
