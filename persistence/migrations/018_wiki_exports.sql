-- Space exports run in the background; this is each job's record, written only
-- by the job that runs it. The zip itself is a blob (`blob_key`).
CREATE TABLE wiki_export_jobs (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  space_id text NOT NULL,
  requested_by text NOT NULL,
  format text NOT NULL,                 -- markdown | html
  status text NOT NULL,                 -- queued | running | succeeded | failed
  progress_at timestamptz NOT NULL DEFAULT now(),  -- last sign of life of a running job
  page_count integer NOT NULL DEFAULT 0,
  pages_done integer NOT NULL DEFAULT 0,
  size_bytes bigint,
  blob_key text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX wiki_export_jobs_space ON wiki_export_jobs (space_id, created_at DESC);
