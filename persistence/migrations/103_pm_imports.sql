-- Bulk jobs (imports, bulk updates) and their per-row results.
CREATE TABLE pm_bulk_jobs (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  kind text NOT NULL,                                 -- import
  source text NOT NULL,                               -- csv | trello | clickup | asana
  list_id text,
  input jsonb NOT NULL,                               -- the parsed rows (task bodies) and the rows refused while parsing
  idempotency_key text,                               -- the same key again returns the same job
  status text NOT NULL,                               -- queued | running | completed | failed | cancelled
  total integer NOT NULL DEFAULT 0,
  processed integer NOT NULL DEFAULT 0,
  succeeded integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  lease_owner text,
  lease_until timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX pm_bulk_jobs_idempotency ON pm_bulk_jobs (workspace_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX pm_bulk_jobs_workspace ON pm_bulk_jobs (workspace_id, created_at DESC);
CREATE INDEX pm_bulk_jobs_open ON pm_bulk_jobs (status) WHERE status IN ('queued', 'running');

-- One row per input row: the idempotency key of a re-run (a row done once is never done again).
CREATE TABLE pm_bulk_job_rows (
  job_id text NOT NULL REFERENCES pm_bulk_jobs (id) ON DELETE CASCADE,
  row_index integer NOT NULL,
  status text NOT NULL,                               -- started | succeeded | failed
  task_id text,
  error text,
  started_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, row_index)
);
