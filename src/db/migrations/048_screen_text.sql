-- What each screen shows (issue 33, item 1): its visible text, read once by OCR after the upload
-- (src/screens/reader.ts), so that planning can put each caption over the screen it speaks of.
-- text_status: 'pending' while the reading thread has it, 'read' (text holds the lines, maybe
-- none), 'failed' (planned without it, with a warning), 'none' for screens stored where nothing
-- reads them (older rows, a process without a reader): nobody waits for those.
ALTER TABLE screens ADD COLUMN text text[];
ALTER TABLE screens ADD COLUMN text_status text NOT NULL DEFAULT 'none' CHECK (text_status IN ('none', 'pending', 'read', 'failed'));
