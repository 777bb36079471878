-- Lens experiments: an A/B test of router or synthesis settings in one
-- workspace; each asker is assigned a variant deterministically, each answer
-- records its variant, and results come from the feedback on those answers.
CREATE TABLE lens_experiments (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  name text NOT NULL,
  status text NOT NULL DEFAULT 'running',
  variants jsonb NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lens_experiments_of_workspace ON lens_experiments (workspace_id, created_at DESC);
