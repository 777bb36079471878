-- Speech-to-text of recordings, chunk by chunk. Each finished chunk's segments are kept, so a job interrupted
-- by a restart resumes from the last finished chunk; `source` names the engine, model, language and media:
-- another source (the engine or the media changed) starts over on a full reprocess.
CREATE TABLE hub_transcription_chunks (
  recording_id bigint NOT NULL REFERENCES hub_recordings (id) ON DELETE CASCADE,
  source text NOT NULL,
  track integer NOT NULL,
  chunk integer NOT NULL,
  start_ms integer NOT NULL,
  end_ms integer NOT NULL,
  segments jsonb NOT NULL,
  sends integer NOT NULL,
  PRIMARY KEY (recording_id, track, chunk)
);
-- What the running job is doing (extracting, transcribing, summarizing) and, while transcribing, chunks done of all.
ALTER TABLE hub_recordings ADD COLUMN stage text;
ALTER TABLE hub_recordings ADD COLUMN chunks jsonb;
