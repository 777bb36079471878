-- Form views: a form on a list whose submissions create tasks.
CREATE TABLE pm_forms (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  list_id text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  fields jsonb NOT NULL,                              -- the chosen fields, in order
  public_token text UNIQUE,                           -- set while the public link is on
  rate_limit_per_minute integer NOT NULL DEFAULT 10,
  submission_count integer NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_forms_workspace ON pm_forms (workspace_id);

CREATE TABLE pm_form_submissions (
  id text PRIMARY KEY,
  form_id text NOT NULL REFERENCES pm_forms (id) ON DELETE CASCADE,
  task_id text NOT NULL,
  submitted_by text,                                  -- NULL for the public link
  source text NOT NULL,                               -- member | public
  answers jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_form_submissions_form ON pm_form_submissions (form_id, created_at DESC);
CREATE INDEX pm_form_submissions_rate ON pm_form_submissions (form_id, created_at) WHERE source = 'public';
