-- Files attached to pages; the bytes live in the BlobStore under blob_key.
CREATE TABLE wiki_attachments (
  id text PRIMARY KEY,
  page_id text NOT NULL REFERENCES wiki_pages (id) ON DELETE CASCADE,
  space_id text NOT NULL,
  workspace_id text NOT NULL,
  filename text NOT NULL,
  content_type text NOT NULL,
  size bigint NOT NULL,
  blob_key text NOT NULL,
  uploaded_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wiki_attachments_page ON wiki_attachments (page_id, created_at);
